"""What reading a page makes: its segments (the values its fields and sentences state, each with the
words that say what it is), the facts linked to the schema, and the page's reading (entity, class,
facts). A page's segments are cached on disk as JSON of these fields (pyramid.reading.corpus): a field
renamed here is a cache that no longer reads."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Segment:
    context: str            # the field's label, or the words leading to the value in a sentence
    value: str
    kind: str               # "field" | "prose"
    mention: bool = False   # the parser saw a name (an entity) in the value
    number: bool = False
    sentence: int = -1      # prose: which sentence of the page it came from
    aside: bool = False     # a count in a sentence about someone else ("Students who pass gain 3 credits")
    complement: bool = False  # a copula's complement ("X is a lecturer"): what the entity is, no thing it links to
    # the named thing does something to the entity ("Ann Lee teaches COMP 255": context "taught by"): the verb as
    # written, what a link the thing holds to the entity is to mean
    active: str = ""


@dataclass
class ReadFact:
    subject: str            # the entity's name (the page's entity, or a value's name for its class)
    prop: str               # property IRI
    value: str              # literal text, or the name of the thing it points to
    is_object: bool
    value_class: str = ""   # object facts: the class of the thing pointed to
    context: str = ""       # how the page said it (the KG's relation)
    # the page's entity is the object: the value's thing holds the property ("Taught by Ann Lee" on a course's
    # page: Ann Lee teaches it)
    reverse: bool = False


@dataclass
class Page:
    title: str
    segments: list[Segment]
    sentences: list[str]


@dataclass
class PageReading:
    """A page read against the schema: its main entity, the entity's class and what the page states."""
    entity: str
    cls: str | None
    facts: list[ReadFact] = field(default_factory=list)
    mentions: dict[str, str] = field(default_factory=dict)   # name → class, for the things pointed to
