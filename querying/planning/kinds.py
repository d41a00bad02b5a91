"""Stage 2, the kind readings: made only for a question that asks what kind of thing a named thing is
("What kind of place is X?", "What type of vehicle is Y?", "Which sort of venue is Z?", "What does X
do?", "What is X's job?" where no property is named "job"). Its answer
is the thing's most specific class in the schema's words — a fact the graph states as a type, which
no attribute holds."""

from __future__ import annotations

import re
from collections.abc import Callable

from pyramid.vocab import Vocab
from querying.planning.records import MAX_ANCHOR_IRIS, Anchor, QuestionReading
from querying.sparql_plan import QueryPlan

# English asks for a kind with "kind/type/sort/category of", after "what" or "which"
KIND_ASKED = re.compile(r"\b(?:what|which)\s+(?:kind|type|sort|category|class)\s+of\b", re.IGNORECASE)
# … and for what someone is by what they do ("What does X do?", "What does X do for the council?"; not "do
# research on"), or by their job's noun, where no property is named by it ("What is X's job?")
DOING_ASKED = re.compile(r"^\s*what\s+(?:does|do|did)\s+.+?\s+do(?:\s+(?:for|at|in|with)\s+[^?]*)?\s*\?*\s*$",
                         re.IGNORECASE)
# (the nouns of one's standing, with a word before them: "X's academic rank"; the noun ends its phrase: "X's job
# title" asks for a title)
STANDING = ("job", "occupation", "role", "post", "position", "rank", "grade")
JOB_ASKED = re.compile(rf"\bwhat\s+is\s+.+?(?:'s|’s)\s+(?:[a-z]+\s+)?({'|'.join(STANDING)})"
                       r"(?=\s*(?:\?|$)|\s+(?:at|in|with|for|on)\b)", re.IGNORECASE)


def asks_kind(question: str, vocab: Vocab) -> bool:
    """The question asks what kind of thing a named thing is, or what someone is (their job, where no
    property of the schema is named for it)."""
    if KIND_ASKED.search(question) or DOING_ASKED.match(question):
        return True
    # (… where no property is named by a noun of standing: a schema with a "position" holds ranks as its values)
    job = JOB_ASKED.search(question)
    return job is not None and not any(w in STANDING for p in vocab.properties for w in p.words.split())


# "Is X a graduate or an undergraduate student?": a copula, then two kinds joined by "or" (the second's head noun
# is the first's too)
ALTERNATIVE_ASKED = re.compile(r"^\s*(?:[Ii]s|[Aa]re|[Ww]as|[Ww]ere)\s+.+?\s+(?:an?\s+)?([a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)*)"
                               r"\s+or\s+(?:an?\s+)?([a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)*)\s*\?*\s*$")


def alternatives(question: str, classes_named: Callable[[str], list[set[str]]]) -> tuple[set[str], set[str]] | None:
    """The two kinds an alternative question offers, as the classes each names; None unless both name one."""
    m = ALTERNATIVE_ASKED.match(question)
    if m is None:
        return None
    left, right = m.group(1), m.group(2)
    if len(left.split()) == 1 and len(right.split()) > 1:
        left = f"{left} {right.split()[-1]}"  # "a graduate or an undergraduate student": a graduate student
    sides = [{c for g in classes_named(side) for c in g} for side in (left, right)]
    return (sides[0], sides[1]) if all(sides) and sides[0] != sides[1] else None


def kind_readings(question: str, anchors: list[Anchor], vocab: Vocab,
                  offered: tuple[set[str], set[str]] | None = None) -> list[QuestionReading]:
    """A reading per named thing: its classes. Empty unless the question asks what kind it is, or which of
    two kinds (`offered`, see `alternatives`) — then only for a thing of exactly one of them: a thing of
    neither, or both, is not answered with a kind it was not asked about."""
    if not asks_kind(question, vocab) and offered is None:
        return []
    out = []
    for a in anchors:
        if offered is not None and sum(any(c == k or k in vocab.ancestors(c) for c in a.classes for k in side)
                                       for side in offered) != 1:
            continue
        cls = next((vocab.by_iri[c] for c in a.classes if c in vocab.by_iri), None)
        if a.is_value or cls is None:
            continue
        plan = QueryPlan(target=cls.name, candidates=list(a.iris)[:MAX_ANCHOR_IRIS], kinds=True)
        out.append(QuestionReading("attribute", plan, "what kind of thing is X?", (a,), 1, None,
                                   asks="what kind of thing?"))
    return out
