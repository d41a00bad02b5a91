"""A `Session` wires one workspace to its settings, providers and layers, built lazily on first use."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from pyramid.corpus_store import CorpusStore
from pyramid.embeddings import Embedder
from pyramid.llm import LLM, LLMProvider, make_llm
from pyramid.prompts import use_workspace_prompts
from pyramid.usage import UsageMeter
from pyramid.workspace import Workspace

if TYPE_CHECKING:
    from pyramid.text_layer import TextLayer


class Session:
    def __init__(self, ws: Workspace, *, provider: LLMProvider | None = None,
                 embedder: Embedder | None = None) -> None:
        self.ws = ws
        self.settings = ws.settings
        self.meter = UsageMeter()
        # a long-running server's session: indexes derived from a store generation are rebuilt beside
        # the requests, which use the last ones meanwhile (querying.ontology_context)
        self.serving = False
        use_workspace_prompts(ws.root / "prompts")  # WS/prompts/<name>.md overrides a packaged prompt
        self._provider = provider
        if embedder is not None:
            self.embedder = embedder

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder(self.settings.embeddings, self.ws.path("cache", "embeddings.sqlite"))

    @cached_property
    def llm(self) -> LLM:
        return make_llm(self.settings.llm, cache_path=self.ws.path("cache", "llm.sqlite"), meter=self.meter,
                        provider=self._provider)

    @cached_property
    def corpus(self) -> CorpusStore:
        return CorpusStore(self.ws)

    @cached_property
    def text(self) -> TextLayer:
        # imported here: bm25s and scipy cost a question answered by the ontology ~0.4 s
        from pyramid.text_layer import TextLayer

        return TextLayer(self.ws, self.embedder).load()

    @cached_property
    def ontology(self):
        """The ontology layer (pyramid.ontology.layer.OntologyLayer)."""
        from pyramid.ontology.layer import OntologyLayer
        return OntologyLayer(self.ws, self.embedder)

    @cached_property
    def kg(self):
        """The knowledge-graph layer (pyramid.kg.layer.KGLayer)."""
        from pyramid.kg.layer import KGLayer
        return KGLayer(self.ws, self.embedder)

    def readings(self, progress=None, schema=None):
        """The pages' schema-aware reading as a provider (pyramid.reading.corpus), read against
        `schema` or the workspace's; None when neither has a class to read against."""
        from pyramid.progress import NullProgress
        from pyramid.reading.corpus import readings_provider

        if schema is None and self.ontology.exists:
            schema = self.ontology.schema
        if schema is None or not getattr(schema, "classes", None):
            return None
        return readings_provider(self.ws, lambda: schema, self.embedder, self.corpus.documents,
                                 progress or NullProgress())
