"""The KG layer end to end with the real local model (SmolLM2-135M through llama-cpp-python): a
one-document build with the default cascade, then a question through `ask --layer kg --json`."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from pyramid.corpus import Document
from pyramid.session import Session

DOC = Document("benzema", "Karim Benzema was the top scorer for Real Madrid in the 2020 La Liga season.")


@pytest.mark.llm
@pytest.mark.slow
def test_real_model_cascade_build_is_journalled_costed_and_answerable(workspace, embedder, capsys):
    s = Session(workspace, embedder=embedder)
    s.corpus.update([DOC])
    r = s.kg.build(s.llm, mode="cascade")
    journal = [json.loads(x) for x in (s.kg.dir / "extract-cascade.jsonl").read_text().splitlines()]
    assert [e["chunk_id"] for e in journal] == ["benzema#0"]          # the chunk is accounted for
    if journal[0]["status"] == "ok":
        assert r.triples_extracted == len(journal[0]["triples"])
    else:
        assert r.failed_chunks == ["benzema#0"] and "LLM" in journal[0]["error"]
    assert r.usage.calls >= 2 and r.usage.completion_tokens > 0        # f_par and f_ent at least
    assert s.ws.manifest()["steps"]["kg.build"]["usage"]["calls"] == r.usage.calls
    for t in s.kg.store().iter_triples():
        # whatever the tiny model kept is grounded in the chunk, with its provenance
        assert t.chunk_id == "benzema#0" and t.confidence >= 0.5
    s.kg.close()
    if r.totals["triples"]:
        code, out, err = run_cli(["ask", workspace.root, "Who was the top scorer for Real Madrid?", "--layer", "kg",
                                  "--json"], capsys)
        assert code == 0, err
        a = json.loads(out)
        assert a["layer"] in ("kg", "none") and a["evidence"][0]["chunk_id"] == "benzema#0"
        assert a["usage"]["calls"] == 1
