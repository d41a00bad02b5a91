"""The curator workflow on a real Oxigraph store: accept / reject / apply, schema versions and diffs,
rejected proposals not re-proposed, and every bad input leaving the store and the files unchanged."""

from __future__ import annotations

import pytest
import yaml
from completion_fixtures import BASE, OxigraphTarget, ontology_ttl

from completion.apply import apply_accepted
from completion.errors import ReviewError
from completion.proposals import Assertion, Proposal
from completion.proposals_file import ProposalsDoc
from completion.review import CompletionFiles, accept, reject, show
from completion.sources import load_rdf_store
from completion.versions import SchemaHistory
from pyramid.errors import Hint, InputError

EMAIL = Proposal(id="P0001", kind="attribute", name="has_email_address", label="has email address",
                 domain="STAFF", range="xsd:string", medoid="staff has email address", triples=2)
LAB = Proposal(id="P0002", kind="class", name="Lab", label="lab", medoid="AI Lab is a lab in", triples=2)
NOISE = Proposal(id="P0003", kind="attribute", name="is_a", label="is a", domain="STAFF", generic=True,
                 medoid="staff is a", triples=9)


@pytest.fixture
def setup(workspace, tmp_path):
    ttl = tmp_path / "onto.ttl"
    ttl.write_text(ontology_ttl(), encoding="utf-8")
    target = OxigraphTarget(load_rdf_store(ttl))
    files = CompletionFiles(workspace)
    with workspace.writing("test"):
        files.save(ProposalsDoc(classes=["DEPARTMENT", "STAFF"], proposals=[EMAIL, LAB, NOISE]))
        files.save_assertions({
            "P0001": [Assertion("Dr Ada CHAN", BASE + "S00", BASE + "STAFF", "ada@example.edu", None, "t1"),
                      Assertion("Prof. Ben WONG", BASE + "S01", BASE + "STAFF", "ben@example.edu", None, "t2")],
            "P0002": [Assertion("AI Lab", None, None, "", None, ""), Assertion("Wind Lab", None, None, "", None, "")]})
    return files, target


def _count(target) -> int:
    return len(target.store)


def test_accept_reject_apply_writes_a_version_with_a_diff(setup):
    files, target = setup
    before = _count(target)
    accept(files, "p0001", name="email")          # ids are case-insensitive; renamed on accept
    accept(files, "P0002")
    reject(files, "P0003", why="too generic")
    assert show(files, "P0001").status == "accepted" and show(files, "P0003").why == "too generic"
    rep = apply_accepted(files, target)
    assert rep.version.number == 1 and rep.instance_statements == 2 + 4
    rows = {str(r["o"].value) for r in target.store.query(
        f"SELECT ?o WHERE {{ <{BASE}S00> <{BASE}email> ?o }}")}
    assert rows == {"ada@example.edu"}
    # reasoning re-ran: the new class's individuals are typed and also owl:Thing via subClassOf
    typed = target.store.query(f"ASK {{ ?x a <{BASE}Lab> ; a <http://www.w3.org/2002/07/owl#Thing> }}")
    assert bool(typed)
    hist = SchemaHistory(files.history)
    assert [v.number for v in hist.versions()] == [1] and (files.history / "v0000.nt").exists()
    diff = hist.diff(1)
    assert f"+<{BASE}email> <http://www.w3.org/2000/01/rdf-schema#domain> <{BASE}STAFF> ." in diff
    assert f"<{BASE}Lab> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>" in diff
    assert _count(target) > before
    doc = files.load()
    assert [p.status for p in doc.proposals] == ["applied", "applied", "rejected"]
    assert doc.proposals[0].version == 1
    assert [r.id for r in files.state().rejected] == ["P0003"]
    with pytest.raises(ReviewError, match="already applied"):
        reject(files, "P0001")


def test_bad_inputs_leave_store_and_files_unchanged(setup):
    files, target = setup
    n, text = _count(target), files.proposals.read_text()
    with pytest.raises(ReviewError, match="no proposal 'P0099'.*P0001, P0002, P0003"):
        accept(files, "P0099")
    with pytest.raises(ReviewError, match="nothing to apply: no proposal is accepted") as exc:
        apply_accepted(files, target)
    assert exc.value.hint == Hint(action="accept_proposal", target=str(files.ws.root))
    with pytest.raises(ReviewError, match="not a class of the ontology"):
        accept(files, "P0001", domain="PLANET")
    accept(files, "P0001", name="has_name")       # clashes with an existing attribute: refused at apply
    with pytest.raises(ReviewError, match="already names a term") as exc:
        apply_accepted(files, target)
    assert exc.value.hint == Hint(action="rename_proposal", target=str(files.ws.root))
    assert _count(target) == n and not files.history.exists()
    assert files.proposals.read_text() != text    # only the accept itself was recorded


def test_an_edited_file_that_no_longer_parses_names_the_line(setup):
    files, target = setup
    n = _count(target)
    lines = files.proposals.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("- id: P0002"))
    broken = lines[:]
    broken[at + 1] = "  status: [accepted"                 # unclosed flow sequence
    files.proposals.write_text("\n".join(broken) + "\n")
    with pytest.raises(InputError, match=r"proposals.yaml, line \d+: not valid YAML"):
        apply_accepted(files, target)
    wrong = lines[:]
    status_line = next(i for i in range(at, len(lines)) if lines[i].strip().startswith("status:"))
    wrong[status_line] = "  status: maybe"
    files.proposals.write_text("\n".join(wrong) + "\n")
    with pytest.raises(InputError) as err:
        accept(files, "P0001")
    assert f"line {status_line + 1}, field 'proposals.1.status'" in str(err.value)
    assert _count(target) == n and not files.history.exists()


def test_proposals_file_is_readable_yaml(setup):
    files, _ = setup
    data = yaml.safe_load(files.proposals.read_text())
    assert files.proposals.read_text().startswith("# PolyRAG completion proposals.")
    assert data["proposals"][0]["name"] == "has_email_address" and "evidence" not in data["proposals"][0]
