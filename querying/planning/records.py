"""The records the planning stages pass along: what the data joins an anchor to, the anchors, the
readings and the draft a question ends in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from querying.sparql_plan import QueryPlan

PLACEHOLDERS = ("X", "Y", "Z")  # the anchors of a reading, in order, as its words write them
TRACE_READINGS = 6              # readings shown in a draft's trace
MAX_ANCHOR_IRIS = 50            # instances of one anchor a plan names as candidates (a query stays small)
# digits kept in a reading's evidence (the trace shows them; scoring reads the rounded fit back)
COSINE_DIGITS = 3               # cosines
SHARE_DIGITS = 2                # fits and shares

Run = Callable[[QueryPlan], list[dict[str, str]]]
# instance IRIs → what the data joins them to (see Neighbourhood), None when it cannot say
Uses = Callable[[Sequence[str]], "Neighbourhood | None"]


@dataclass(frozen=True)
class Neighbourhood:
    """What the data joins an anchor to, as the readings need it. Ways are relative to the nearer
    node: "out" when it is the subject, "in" when it is the object.

    attributes  datatype properties the anchor has
    one         (property, way, class of the neighbour)
    two         (property, way, class of the middle node, property, way, class of the far node)
    """

    attributes: frozenset[str] = frozenset()
    one: frozenset[tuple[str, str, str]] = frozenset()
    two: frozenset[tuple[str, str, str, str, str, str]] = frozenset()


@dataclass(frozen=True)
class Anchor:
    """Something the question names: instances (iris, their most specific classes) or a value of a
    datatype property (prop; stored: the values as the store writes them)."""

    spans: tuple[tuple[int, int], ...]
    text: str
    iris: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    prop: str = ""
    exact: bool = True
    stored: tuple[str, ...] = ()
    op: str = ""                 # a number compared ("more than 3 credits": gt); "" = eq / contains

    @property
    def is_value(self) -> bool:
        return bool(self.prop)


@dataclass
class QuestionReading:
    """One way to read the question: a plan, the plan as a short question in the schema's words, and
    the score and evidence it gathers."""

    kind: Literal["members", "attribute"]
    plan: QueryPlan
    text: str                              # the reading as a question, anchors as placeholders
    anchors: tuple[Anchor, ...]
    steps: int
    answer_class: str | None               # the class IRI of what it returns; None for values
    score: float = 0.0
    evidence: dict[str, float] = field(default_factory=dict)
    rows: list[dict[str, str]] | None = None
    clause: str = ""                       # members: the path with {T} for the answer, X for the anchor
    mids: tuple[str, ...] = ()             # classes the path passes through
    prop: str = ""                         # attribute: the property's words
    prop_names: tuple[str, ...] = ()       # attribute: every name of it (label, local name, other labels)
    asks: str = ""                         # what it answers with, alone: "which department", "what position"
    # the same reading under each name of its answer class ("which course …", "which subject …"):
    # scored by the nearest, as one name of a class in brackets reads less like either
    variants: tuple[tuple[str, str], ...] = ()   # (text, asks)
    value_class: str | None = None         # attribute: the class whose instances its values name, if any
    # members: the narrower class the question asks for, where the answer class is above it ("which valley" read
    # as the places X is in): its things, and those the data files under nothing narrower than the answer class
    asked_class: str | None = None

    def property_names(self) -> tuple[str, ...]:
        """Every name of the attribute's property ("can be reached at", "email address"); () for members."""
        return self.prop_names or ((self.prop,) if self.prop else ())

    def spelled(self) -> str:
        """The reading with its anchors written out (for the trace and the model's choice)."""
        text = self.text
        for ph, a in zip(PLACEHOLDERS, self.anchors):
            text = text.replace(ph, f'"{a.text}"', 1)
        return text


@dataclass
class PlanDraft:
    """What planning a question ends in: the chosen reading's plan (None, with a reason, when there is
    none), its rows if it ran, and the readings and decisions behind it."""

    question: str
    plan: QueryPlan | None
    rows: list[dict[str, str]] | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    readings: list[QuestionReading] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    best: QuestionReading | None = None
    enumerated: int = 0     # how many readings the schema allowed, before any was set aside

    def trace(self) -> dict:
        return {"decisions": self.decisions, "reason": self.reason, "enumerated": self.enumerated,
                "readings": [f"{r.score:.3f} {r.spelled()} {r.evidence}" for r in self.readings[:TRACE_READINGS]]}
