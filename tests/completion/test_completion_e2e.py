"""One completion cycle on a small pyramid, with real components (MiniLM, kmedoids, Oxigraph):
run → proposals file → reject / accept → apply → re-run (nothing re-proposed) → plot; and the CLI's
messages for the bad inputs of the issue."""

from __future__ import annotations

import dataclasses

import pytest
from completion_fixtures import BASE, WEBSITES, OxigraphTarget, kg_triples, ontology_ttl, website_triples
from conftest import run_cli

from completion.apply import apply_accepted
from completion.errors import CompletionError
from completion.pipeline import run_completion
from completion.plot import plot
from completion.review import CompletionFiles, accept, reject
from completion.service import run_in_workspace
from completion.sources import load_rdf_store
from completion.types import KGTriple
from pyramid.config import CompletionSettings
from pyramid.errors import InputError

CFG = CompletionSettings(k_min=2, k_max=8)


@pytest.fixture
def pyramid(workspace, tmp_path):
    ttl = tmp_path / "onto.ttl"
    ttl.write_text(ontology_ttl(), encoding="utf-8")
    return CompletionFiles(workspace), OxigraphTarget(load_rdf_store(ttl))


def _find(doc, word):
    return next(p for p in doc.proposals if any(word in r.text for r in p.relations))


def test_completion_cycle(pyramid, embedder, tmp_path):
    files, target = pyramid
    embed = lambda texts: embedder.embed(list(texts))
    result = run_in_workspace(files, target, kg_triples(), embed, CFG)
    assert result.stats["priority_finite"] and result.stats["typed_subjects"] == 20
    doc = files.load()
    interest, email = _find(doc, "research interest"), _find(doc, "email")
    assert interest.kind == "attribute" and interest.domain == "STAFF" and interest.range == "xsd:string"
    assert interest.rank <= 3 and interest.typed_subjects == 20
    assert all(e.chunk_id and e.doc_id for e in interest.evidence)
    # 'is a Professor' and 'is a staff member in' say what has_position and works_for say: the
    # ontology is dense there, so they are neither high priority nor proposed
    said = {r.text for p in doc.proposals for r in p.relations}
    assert not said & {"is a", "is a staff member in"}

    reject(files, email.id, why="contact data stays out of the ontology")
    accept(files, interest.id, name="has_research_interest")
    rep = apply_accepted(files, target)
    assert rep.instance_statements == 40
    ask = f"ASK {{ <{BASE}S03> <{BASE}has_research_interest> ?x . <{BASE}has_research_interest> " \
          f"<http://www.w3.org/2000/01/rdf-schema#domain> <{BASE}STAFF> }}"
    assert bool(target.store.query(ask))

    again = run_in_workspace(files, target, kg_triples(), embed, CFG)
    doc2 = files.load()
    ids = {p.id for p in doc2.proposals}
    assert not any("email" in r.text for p in doc2.proposals for r in p.relations[:1])
    assert again.stats["suppressed_rejected"] >= 1
    assert any(c.covered_by == "has_research_interest" for c in doc2.covered)
    assert ids.isdisjoint({interest.id, email.id}) and files.state().runs == 2

    png = plot(files.plot, tmp_path / "fig.png")
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"


def test_bad_inputs_have_clear_messages(pyramid, embedder, capsys):
    files, target = pyramid
    embed = lambda texts: embedder.embed(list(texts))
    untyped = [KGTriple(f"u{i}", f"Company {i}", "sells", "things") for i in range(5)]
    with pytest.raises(CompletionError, match="none of the KG's 5 distinct subjects links"):
        run_in_workspace(files, target, untyped, embed, CFG)
    view = target.view()
    tiny = OxigraphTarget(target.store)
    tiny.view = lambda: dataclasses.replace(view, pairs=view.pairs[:2])
    with pytest.raises(CompletionError, match="ontology gives 2 distinct .* at least 3"):
        run_in_workspace(files, tiny, kg_triples(), embed, CFG)
    assert not files.proposals.exists()                    # nothing half-written

    run_in_workspace(files, target, kg_triples(), embed, CFG)
    ws = str(files.ws.root)
    code, out, err = run_cli(["complete", "show", ws, "P0001"], capsys)
    assert code == 0 and "P0001" in out and "evidence:" in out
    code, out, err = run_cli(["complete", "accept", ws, "P0999"], capsys)
    assert code == 2 and "no proposal 'P0999'" in err
    files.proposals.write_text(files.proposals.read_text().replace("status: proposed", "status: [", 1))
    code, out, err = run_cli(["complete", "reject", ws, "P0001"], capsys)
    assert code == 2 and "proposals.yaml, line" in err and "not valid YAML" in err
    # the hint does not send the curator to a command that refuses the file too
    assert "fix the edit" in err and "`run` included" in err and "re-run" not in err
    with pytest.raises(InputError, match="not valid YAML.*fix the edit"):
        run_in_workspace(files, target, kg_triples(), embed, CFG)


def test_near_paraphrases_end_in_one_proposal_with_default_settings(pyramid, embedder):
    # 13 high-priority phrases: three meanings worded three ways each (+ a few others). With k_min = 16
    # the grid used to be k = 12 alone, one proposal per wording.
    view = pyramid[1].view()
    result = run_completion(view, kg_triples() + website_triples(), lambda t: embedder.embed(list(t)),
                            CompletionSettings())
    proposals = [d.proposal for d in result.drafts if d.proposal.covered_by is None]
    for words, wordings in (("research interest", 3), ("email", 3), ("website", len(WEBSITES))):
        hits = [p for p in proposals if any(words in r.text for r in p.relations)]
        assert len(hits) == 1 and len(hits[0].relations) == wordings, (words, hits)
