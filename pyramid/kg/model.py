"""Typed values of the KG layer: `Entity`, `Triple`, and the names and ids derived from them.

Ids are deterministic so that re-running a build or an import upserts instead of duplicating:
an entity's id comes from its normalised name, a triple's id from its source, ends and relation.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from pyramid.normalise import fold

# The key of exact entity resolution (case, accents, punctuation, titles folded away); re-exported
# under its KG name because kg/extract, kg/resolve and querying/ import it from here.
from pyramid.normalise import name_key as normalise_name


def canonical_name(relation: str) -> str:
    """The default canonical relation name: 'is a member of' → 'is_a_member_of'."""
    return "_".join(fold(relation).split()) or "_".join(relation.split()).lower()


def _digest(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def entity_id(norm: str) -> str:
    return "e" + _digest(norm)


def triple_id(subject_id: str, relation: str, object_id: str, source: str) -> str:
    """Same source, ends and relation text = same triple (the upsert key)."""
    return "t" + _digest(subject_id, relation.strip().lower(), object_id, source)


@dataclass(frozen=True)
class Entity:
    id: str
    name: str
    norm: str
    type: str = ""   # "" = unknown, compatible with every type

    @classmethod
    def named(cls, name: str, type: str = "") -> Entity:
        norm = normalise_name(name)
        return cls(entity_id(norm), " ".join(name.split()), norm, type.strip().upper())


@dataclass(frozen=True)
class Triple:
    """One edge: subject —relation→ object, with its provenance and extra properties."""

    id: str
    subject: Entity
    relation: str                 # the text as extracted or imported
    object: Entity
    canonical: str = ""           # canonical relation name (condensation may rename it)
    properties: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    chunk_id: str | None = None
    doc_id: str | None = None
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if not self.relation.strip():
            raise ValueError(f"triple {self.id}: empty relation")
        if not self.canonical:
            object.__setattr__(self, "canonical", canonical_name(self.relation))

    @classmethod
    def make(cls, subject: Entity, relation: str, obj: Entity, *, source: str, properties: dict | None = None,
             chunk_id: str | None = None, doc_id: str | None = None, confidence: float = 1.0,
             canonical: str = "") -> Triple:
        relation = " ".join(relation.split())
        return cls(triple_id(subject.id, relation, obj.id, source), subject, relation, obj, canonical,
                   dict(properties or {}), chunk_id, doc_id, confidence)

    def text(self) -> str:
        """What Emb_kg embeds: 'subject relation object (key: value; ...)'."""
        base = f"{self.subject.name} {self.relation} {self.object.name}"
        if self.properties:
            base += " (" + "; ".join(f"{k}: {v}" for k, v in sorted(self.properties.items())) + ")"
        return base

    def props_json(self) -> str:
        # Properties travel as one JSON string: Neo4j forbids map-valued properties and Kùzu needs a
        # fixed schema, so a string is the one portable shape.
        return json.dumps(self.properties, ensure_ascii=False, sort_keys=True)


def triple_to_json(t: Triple) -> str:
    """One line of JSON that `triple_from_json` reads back into an equal Triple (properties included)."""
    return json.dumps({"id": t.id, "s": [t.subject.id, t.subject.name, t.subject.norm, t.subject.type],
                       "r": t.relation, "c": t.canonical, "o": [t.object.id, t.object.name, t.object.norm,
                                                             t.object.type],
                       "p": t.properties, "chunk": t.chunk_id, "doc": t.doc_id, "conf": t.confidence},
                      ensure_ascii=False)


def triple_from_json(line: str) -> Triple:
    d = json.loads(line)
    return Triple(d["id"], Entity(*d["s"]), d["r"], Entity(*d["o"]), d["c"], d["p"], d["chunk"], d["doc"],
                  d["conf"])


@dataclass(frozen=True)
class RelationCount:
    canonical: str
    relation: str
    count: int


@dataclass(frozen=True)
class StoreStats:
    entities: int
    triples: int
    relations: int               # distinct relation texts
    canonical_relations: int     # distinct canonical names
    documents: int


@dataclass
class RawTriple:
    """A triple as read from a chunk, a page or a file, before entity resolution."""

    head: str
    relation: str
    tail: str
    head_type: str = ""
    tail_type: str = ""
    properties: dict[str, str] = field(default_factory=dict)
    canonical: str = ""
    confidence: float = 1.0

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RawTriple:
        return cls(**d)


@dataclass(frozen=True)
class Sourced:
    """A raw triple with where it came from."""

    triple: RawTriple
    doc_id: str
    chunk_id: str | None
