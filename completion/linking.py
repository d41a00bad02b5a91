"""Typing KG entities by linking them to ontology instances through their names.

A KG subject such as 'Prof. Chih-yung WEN' is the ontology individual labelled 'Chih-yung WEN', so
its triples are about a STAFF member and its phrases read 'staff ...'. Linking is by `name_key`
(titles, CJK characters, punctuation, case and word order ignored). A key shared by individuals of
different classes is ambiguous and left untyped rather than guessed; so are one-word keys that are
not a whole label (a bare 'Chan' names dozens of people).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from completion.names import name_key
from completion.types import OntologyInstance


@dataclass(frozen=True)
class InstanceLink:
    iri: str
    cls: str


@dataclass
class Typing:
    """Entity name → linked instance, with what could not be typed."""

    links: dict[str, InstanceLink]
    ambiguous: list[str] = field(default_factory=list)
    names_seen: int = 0

    def cls(self, name: str) -> str | None:
        link = self.links.get(name)
        return link.cls if link else None

    def iri(self, name: str) -> str | None:
        link = self.links.get(name)
        return link.iri if link else None

    def class_counts(self, names: Iterable[str]) -> Counter[str]:
        return Counter(c for c in (self.cls(n) for n in names) if c)


class NameLinker:
    """Index of instance names; `link(names)` types the names it recognises."""

    def __init__(self, instances: Sequence[OntologyInstance]) -> None:
        by_key: dict[frozenset[str], set[tuple[str, str]]] = defaultdict(set)
        for inst in instances:
            key = name_key(inst.label)
            if key:
                by_key[key].add((inst.iri, inst.cls))
        self._by_key = by_key

    def link(self, names: Iterable[str]) -> Typing:
        links: dict[str, InstanceLink] = {}
        ambiguous: list[str] = []
        seen = 0
        for name in dict.fromkeys(names):
            seen += 1
            hits = self._by_key.get(name_key(name))
            if not hits:
                continue
            classes = {c for _, c in hits}
            if len(classes) > 1:
                ambiguous.append(name)
                continue
            # Several individuals of one class under one name (duplicate records): the class is
            # certain, the individual is not; take the first IRI in sorted order so runs agree.
            iri, cls = min(hits)
            links[name] = InstanceLink(iri, cls)
        return Typing(links, ambiguous, seen)
