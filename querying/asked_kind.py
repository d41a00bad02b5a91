"""The things of the kind a question asks for by name ("Which department organises X?", "What regular
activities are on at Y?"): the ontology's instances of the class its asked words name. A text answer to
such a question must name one of them: a sentence that names none ("X is on 27 May") answers another
question. Where the schema names no such class, or the ontology holds none of its things, nothing is
known to check against and no check is made."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from querying.planning.names import SchemaNames
from querying.planning.vectors import QueryVectors
from querying.question_names import norm_words, starts_of

if TYPE_CHECKING:
    from querying.ontology_context import OntologyContext

Name = tuple[str, ...]


@dataclass(frozen=True)
class Things:
    """The names of the things of one kind (`kind`, in the schema's words), by their first word."""

    kind: str
    starts: dict[str, tuple[Name, ...]]
    unknown: bool = False  # the ontology knows none of the kind: no sentence can be checked to name one

    def __bool__(self) -> bool:
        return bool(self.starts) or self.unknown

    def offered(self, options: Sequence[str] | None) -> Things:
        """Where the ontology knows none of the kind, the options a question offers are the things it asks
        among; anywhere else, the things as they are."""
        if not self.unknown or not options:
            return self
        starts: dict[str, set[Name]] = {}
        for option in options:
            if words := tuple(norm_words(option)):
                starts.setdefault(words[0], set()).add(words)
        return Things(self.kind, {w: tuple(ks) for w, ks in starts.items()})

    def named_in(self, text: str, own: Sequence[Name] = ()) -> bool:
        """Does `text` name one of the things, whole and outside the question's own names (`own`:
        "Saltworks", a district, is not named by the "Saltworks Park" the question asks about)? Only the
        things the ontology knows count: a thing the reader missed goes unanswered here (tried: any
        unknown capitalised name of two words or more also counting admitted a place and a list of
        titles, "Based in Mexico … the studio produced Beyond the Mirror, …"). Where it knows none of the
        kind, no sentence is known to name one: "Saltworks Hall is a community centre" names no activity held
        there, and a sentence listing names may list other things (tried: any name the question does not
        write answered with a list of facilities)."""
        words = norm_words(text)
        covered = {j for name in own for i in starts_of(words, name) for j in range(i, i + len(name))}
        if self.unknown:
            return False
        return any(tuple(words[i:i + len(k)]) == k and not covered & set(range(i, i + len(k)))
                   for i, w in enumerate(words) for k in self.starts.get(w, ()))


class KindNames:
    """The things a question asks for by their kind, from the ontology's current context (`context`;
    None when the workspace has no ontology)."""

    def __init__(self, context: Callable[[], OntologyContext | None], vectors: QueryVectors) -> None:
        self._context, self._vectors = context, vectors
        self._names: tuple[str, SchemaNames] | None = None  # per generation: the schema's names of classes
        self._things: dict[str, Things | None] = {}          # …and each asked class's things

    def __call__(self, question: str) -> Things | None:
        """The things of the class `question` asks for by name; None when it asks for none, or none of
        its things is known."""
        ctx = self._context()
        if ctx is None or not ctx.vocab.classes:
            return None
        if self._names is None or self._names[0] != ctx.fingerprint:
            # a class by its own names only: the word its properties share ("number") asks for no thing
            self._names, self._things = (ctx.fingerprint, SchemaNames(ctx.vocab, self._vectors, aliases=False)), {}
        names = self._names[1]
        asked = names.asked_class(question, [])
        if asked is None:
            return None
        if asked not in self._things:  # each class's things gathered once per generation
            starts: dict[str, set[Name]] = {}
            for e in ctx.index.entries:
                if any(c == asked or asked in ctx.vocab.ancestors(c) for c in e.classes) and _a_name(e.surface):
                    words = tuple(norm_words(e.surface))
                    starts.setdefault(words[0], set()).add(words)
            self._things[asked] = Things(names.class_words[asked], {w: tuple(ks) for w, ks in starts.items()},
                                         unknown=not starts)
        return self._things[asked]


def _a_name(surface: str) -> bool:
    """A label that a sentence can be said to name: written with a capital or a digit, or of several
    words ("machine learning"); a lone lower-case word ("manager", read off a page as a thing) is any
    sentence's word."""
    words = norm_words(surface)
    kept = [w for w in surface.split() if norm_words(w) and norm_words(w)[0] in words]  # "The manager": manager
    return bool(words) and (len(words) > 1 or any(ch.isupper() or ch.isdigit() for w in kept for ch in w))

