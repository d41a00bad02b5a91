"""Emb_kg triple search: persisted, incremental index; ranking; 1-hop expansion. Real MiniLM and
LadybugDB, no LLM."""

from __future__ import annotations

from kg_fixtures import SPORTS, t

from pyramid.kg.layer import KGLayer


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner):
        self.inner, self.texts = inner, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed(self, texts, **kw):
        self.texts += list(texts)
        return self.inner.embed(texts, **kw)


def _load(kg: KGLayer, triples) -> None:
    with kg.ws.writing("test"):
        store = kg.store(write=True)
        store.upsert([], triples)
        kg.index.sync(store.iter_triples())


def test_search_ranks_the_matching_triple_first_with_its_properties_embedded(workspace, embedder):
    kg = KGLayer(workspace, embedder)
    _load(kg, SPORTS)
    hits = kg.search("Who captained the St. Louis Blues?", k=3)
    assert hits[0].triple.relation == "captain of" and len(hits) == 3
    assert hits[0].score >= hits[1].score >= hits[2].score
    assert kg.index.triples[kg.index.row(SPORTS[2].id)].text() == "Ronaldo won Golden Shoe (year: 2002)"


def test_index_is_persisted_and_incremental(workspace, embedder):
    spy = CountingEmbedder(embedder)
    kg = KGLayer(workspace, spy)
    _load(kg, SPORTS[:4])
    assert len(spy.texts) == 4
    spy.texts.clear()
    _load(kg, SPORTS)                       # three new triples: only they are embedded
    assert sorted(spy.texts) == sorted(x.text() for x in SPORTS[4:])
    kg.close()
    reopened = KGLayer(workspace, embedder)  # a new process would see the same generation
    assert len(reopened.index) == 7
    assert reopened.search("Stanley Cup winner", k=1)[0].triple.id == SPORTS[5].id
    with workspace.writing("test"):
        store = reopened.store(write=True)
        store.delete_documents(["d4"])
        report = reopened.index.sync(store.iter_triples())
    assert (report.removed, report.added, report.total) == (2, 0, 5)


def test_expansion_adds_one_hop_neighbours_marked_as_such(workspace, embedder):
    kg = KGLayer(workspace, embedder)
    extra = [t("Real Madrid", "is based in", "Madrid", doc="d9"), t("Madrid", "is capital of", "Spain", doc="d9")]
    _load(kg, SPORTS + extra)
    plain = kg.search("Karim Benzema top scorer", k=1)
    assert [h.triple.id for h in plain] == [SPORTS[0].id]
    expanded = kg.search("Karim Benzema top scorer", k=1, expand=True)
    assert expanded[0].via == "search"
    via = {h.triple.relation: h.via for h in expanded[1:]}
    assert via == {"plays in": "expansion", "is based in": "expansion"}   # 1 hop from Benzema / Real Madrid
    assert "is capital of" not in via                                      # 2 hops away
