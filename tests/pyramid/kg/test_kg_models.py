"""The KG layer end to end with the real local model (SmolLM2-135M through llama-cpp-python): a
one-document build with the default cascade, then a question through `ask --layer kg --json`.

The text is one the model reliably extracts from: decoding is greedy (llm.temperature = 0), and on
this text the cascade gave the same triple, 'Marie Curie —warsaw→ 1903', in each of four runs.
(On the Benzema sentence used before, it dropped all five of its triples as not in the chunk, and
the test then skipped its question.)"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from pyramid.corpus import Document
from pyramid.session import Session

DOC = Document("curie", "Marie Curie was born in Warsaw. Marie Curie won the Nobel Prize in Physics in 1903.")
QUESTION = "When was Marie Curie in Warsaw?"


@pytest.mark.llm
@pytest.mark.slow
def test_real_model_cascade_build_is_journalled_costed_and_answerable(workspace, embedder, capsys):
    s = Session(workspace, embedder=embedder)
    s.corpus.update([DOC])
    r = s.kg.build(s.llm, mode="cascade")
    journal = [json.loads(x) for x in (s.kg.dir / "extract-cascade.jsonl").read_text().splitlines()]
    assert [(e["chunk_id"], e["status"]) for e in journal] == [("curie#0", "ok")]
    assert not r.failed_chunks and r.triples_extracted == len(journal[0]["triples"]) >= 1
    assert r.usage.calls >= 3 and r.usage.completion_tokens > 0        # f_par, f_ent, f_rel at least
    assert s.ws.manifest()["steps"]["kg.build"]["usage"]["calls"] == r.usage.calls
    triples = list(s.kg.store().iter_triples())
    assert r.totals["triples"] == len(triples) >= 1
    assert any(t.subject.name == "Marie Curie" and "warsaw" in t.text().lower() for t in triples)
    for t in triples:   # grounded in the chunk, with its provenance
        assert (t.chunk_id, t.doc_id) == ("curie#0", "curie") and t.confidence >= 0.5
    s.kg.close()
    code, out, err = run_cli(["ask", workspace.root, QUESTION, "--layer", "kg", "--json"], capsys)
    assert code == 0, err
    a = json.loads(out)
    assert a["layer"] == "kg" and a["text"].strip()                     # answered from the triples
    first = a["evidence"][0]
    assert (first["subject"], first["chunk_id"], first["doc_id"]) == ("Marie Curie", "curie#0", "curie")
    assert a["usage"]["calls"] == 1     # the signals said yes; the model only wrote the answer
