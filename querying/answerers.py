"""One answerer per layer, behind one small protocol, built from one registry.

    answerer.name                                   "ontology" | "kg" | "text"
    answerer.answer(question, handover, options=)   -> Answer; layer "none" passes the question down

An answerer gets its dependencies (layer, model, embedder, settings, usage meter) in its constructor;
`REGISTRY` maps each layer name to the function that builds its answerer from a `Session` (the one
place that knows where a session keeps them), so the waterfall is a loop over answerers and the
command line's layer choices come from the same names (pyramid.types.LAYERS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from pyramid.session import Session
from pyramid.types import LAYERS, Answer, Handover, LayerName, check_question

if TYPE_CHECKING:  # the layers load when an answerer is built: an ontology question never loads the KG's
    from pyramid.config import KGSettings
    from pyramid.embeddings import Embedder
    from pyramid.kg.layer import KGLayer
    from pyramid.llm import LLM
    from pyramid.usage import UsageMeter


class Answerer(Protocol):
    name: LayerName

    def answer(self, question: str, handover: Handover | None = None, *,
               options: list[str] | None = None) -> Answer: ...


@dataclass(frozen=True)
class AskOptions:
    """How each answerer runs: SPARQL by plan or raw, Mindful-RAG at the KG layer, k triples."""

    sparql_mode: str | None = None      # None: query.sparql
    mindful: bool = False
    k: int | None = None


class KGAnswerer:
    """The KG layer's answerer: top-k triples and the sufficiency check, or the Mindful-RAG steps."""

    name: LayerName = "kg"

    def __init__(self, kg: KGLayer, llm: LLM, embedder: Embedder, cfg: KGSettings, meter: UsageMeter, *,
                 mindful: bool = False, k: int | None = None) -> None:
        self.kg, self.llm, self.embedder, self.cfg, self.meter = kg, llm, embedder, cfg, meter
        self.mindful, self.k = mindful, k

    def answer(self, question: str, handover: Handover | None = None, *,
               options: list[str] | None = None) -> Answer:
        if self.mindful:
            from querying.mindful import answer_mindful
            return answer_mindful(self.kg, self.llm, self.embedder, self.cfg, self.meter, question,
                                  options=options, k=self.k)
        from querying.kg_qa import answer_triples
        return answer_triples(self.kg, self.llm, self.cfg, self.meter, question, options=options, k=self.k)


def _ontology(session: Session, opts: AskOptions) -> Answerer:
    from querying.ontology_qa import OntologyAnswerer
    return OntologyAnswerer.from_session(session, mode=opts.sparql_mode or session.settings.query.sparql)  # type: ignore[arg-type]


def _kg(session: Session, opts: AskOptions) -> Answerer:
    return KGAnswerer(session.kg, session.llm, session.embedder, session.settings.kg, session.meter,
                      mindful=opts.mindful, k=opts.k)


def _text(session: Session, opts: AskOptions) -> Answerer:
    from pyramid.errors import WorkspaceError
    from querying.asked_kind import KindNames
    from querying.k2rag import TextAnswerer
    from querying.ontology_context import contexts
    from querying.planning.vectors import QueryVectors

    def context():  # the ontology's indexes, where the workspace has a readable ontology (the waterfall built them)
        layer = session.ontology
        try:
            return contexts.get(layer, session.ws.path("cache"), background=session.serving) if layer.exists else None
        except WorkspaceError:  # a damaged store is the ontology layer's failure to report; text answers without it
            return None

    return TextAnswerer(lambda: session.text, session.llm, session.embedder, session.settings.query, session.meter,
                        kinds=KindNames(context, QueryVectors(session.embedder)))


REGISTRY: dict[LayerName, Callable[[Session, AskOptions], Answerer]] = {
    "ontology": _ontology, "kg": _kg, "text": _text}
assert tuple(REGISTRY) == LAYERS  # every layer has an answerer, in the waterfall's order


def answerers(session: Session, names: Sequence[LayerName] = LAYERS, opts: AskOptions | None = None
              ) -> list[Answerer]:
    """Answerers for `names`, in the waterfall's order (top-down)."""
    opts = opts or AskOptions()
    return [REGISTRY[name](session, opts) for name in LAYERS if name in names]


def answer_kg(session: Session, question: str, *, options: list[str] | None = None, mindful: bool = False,
              k: int | None = None) -> Answer:
    """The KG layer alone, on a session's layer and model."""
    return _kg(session, AskOptions(mindful=mindful, k=k)).answer(check_question(question), options=options)
