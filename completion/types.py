"""Typed inputs of completion and condensation: what they need from the ontology and KG layers.

Both jobs work on these small records, never on a store directly, so the wiring to the layers
(`completion.sources`) stays thin and the algorithms run on any ontology/KG that can be listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

AttributeKind = Literal["datatype", "object"]


@dataclass(frozen=True)
class ClassAttribute:
    """One (class, attribute) pair of the ontology schema: the attribute's domain class and itself."""

    cls: str                      # class IRI (or a bare name in tests)
    attribute: str                # property IRI
    kind: AttributeKind = "datatype"
    range: str | None = None      # class IRI for object properties, datatype IRI or None otherwise
    cls_label: str = ""           # rdfs:label when the schema has one
    attribute_label: str = ""


@dataclass(frozen=True)
class OntologyInstance:
    """An individual of the ontology, with the name it is known by (rdfs:label, has_name, ...)."""

    iri: str
    cls: str
    label: str


@dataclass(frozen=True)
class KGTriple:
    """One KG edge as completion sees it: the relation is the text as extracted."""

    id: str
    subject: str
    relation: str
    object: str
    chunk_id: str | None = None
    doc_id: str | None = None


@dataclass(frozen=True)
class OntologyView:
    """What completion reads from the ontology layer."""

    pairs: tuple[ClassAttribute, ...]
    instances: tuple[OntologyInstance, ...]
    classes: tuple[str, ...] = ()     # every declared class, including ones without attributes
    base: str = "http://example.org/"  # namespace new terms are minted in
    # (individual IRI, attribute IRI, value text) of the attributes in `pairs`; an IRI value is given
    # by its label. Used to tell a KG cluster that only rewords an existing attribute (same values).
    facts: tuple[tuple[str, str, str], ...] = ()
