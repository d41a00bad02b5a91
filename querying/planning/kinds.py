"""Stage 2, the kind readings: made only for a question that asks what kind of thing a named thing is
("What kind of place is X?", "What type of vehicle is Y?", "Which sort of venue is Z?"). Its answer
is the thing's most specific class in the schema's words — a fact the graph states as a type, which
no attribute holds."""

from __future__ import annotations

import re

from pyramid.vocab import Vocab
from querying.planning.records import MAX_ANCHOR_IRIS, Anchor, QuestionReading
from querying.sparql_plan import QueryPlan

# English asks for a kind with "kind/type/sort/category of", after "what" or "which"
KIND_ASKED = re.compile(r"\b(?:what|which)\s+(?:kind|type|sort|category|class)\s+of\b", re.IGNORECASE)


def kind_readings(question: str, anchors: list[Anchor], vocab: Vocab) -> list[QuestionReading]:
    """A reading per named thing: its classes. Empty unless the question asks what kind it is."""
    if not KIND_ASKED.search(question):
        return []
    out = []
    for a in anchors:
        cls = next((vocab.by_iri[c] for c in a.classes if c in vocab.by_iri), None)
        if a.is_value or cls is None:
            continue
        plan = QueryPlan(target=cls.name, candidates=list(a.iris)[:MAX_ANCHOR_IRIS], kinds=True)
        out.append(QuestionReading("attribute", plan, "what kind of thing is X?", (a,), 1, None,
                                   asks="what kind of thing?"))
    return out
