"""Extraction strategies are components: a new one is one module and its registration, and the build
chooses it by its setting with nothing else changed. The strategies here are written for these tests
(a module file made in a temporary directory, as a plug-in package would ship it); the KG build runs
on real LadybugDB and MiniLM with the scripted LLM (no rules: a model call fails the test)."""

from __future__ import annotations

import textwrap
from importlib import metadata

import pytest
from conftest import ROOT
from kg_fixtures import kg_session

from pyramid.errors import ConfigError
from pyramid.kg.extractors import TRIPLE_EXTRACTORS
from pyramid.ontology.extractors import INSTANCE_EXTRACTORS
from pyramid.plugins import Entry, Registry

# A strategy as a third party would write it: capitalised words joined by the one word between them
# ("Mira teaches Optics" → (Mira, teaches, Optics)). Nothing in the product names it.
CAPS_PAIRS = '''
import re

from pyramid.kg.extractors.base import ChunkTripleExtractor
from pyramid.kg.model import RawTriple
from pyramid.plugins import Entry


class CapsPairs(ChunkTripleExtractor):
    name = "caps-pairs"

    def raw_triples(self, text, title):
        return [RawTriple(m[1], m[2], m[3], canonical=m[2]) for m in re.finditer(r"([A-Z]\\w+) ([a-z]+) ([A-Z]\\w+)", text)]


def register(registry):
    registry.register(Entry("caps-pairs", CapsPairs.from_settings, "capitalised words and the verb between"))
'''

# An instance strategy: every document gets one instance of the schema's first class, named by its id.
ONE_PER_DOC = '''
from pyramid.ontology.extractors.base import RDF_TYPE, RDFS_LABEL
from pyramid.plugins import Entry
from pyramid.workspace import atomic_write_json


class OnePerDocument:
    name = "one-per-doc"

    def extract(self, docs, job):
        cls = sorted(job.layer.schema.classes)[0]
        for d in docs:
            iri = job.namespace + d.id
            job.layer.add_instances(d.id, [(iri, RDF_TYPE, cls), (iri, RDFS_LABEL, d.id)])
            job.state[d.id] = d.content_hash
            job.report.documents += 1
        atomic_write_json(job.state_path, job.state)

    def outcome(self, report):
        return f"{report.documents} documents, one instance each"


def register(registry):
    registry.register(Entry("one-per-doc", OnePerDocument, "one instance per document"))
'''

DOCS = {"m1": "Mira teaches Optics at the observatory.", "m2": "Tomas visits Lisbon every spring."}


@pytest.fixture()
def plugin_dir(tmp_path, monkeypatch):
    (tmp_path / "caps_pairs.py").write_text(textwrap.dedent(CAPS_PAIRS), encoding="utf-8")
    (tmp_path / "one_per_doc.py").write_text(textwrap.dedent(ONE_PER_DOC), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    TRIPLE_EXTRACTORS.unregister("caps-pairs")
    INSTANCE_EXTRACTORS.unregister("one-per-doc")


def test_a_new_kg_strategy_is_one_module_and_its_registration(workspace, embedder, plugin_dir):
    import caps_pairs

    s = kg_session(workspace, embedder, {}, DOCS, mode="caps-pairs")
    with pytest.raises(ConfigError, match="unknown KG extraction mode 'caps-pairs'"):
        s.kg.build(s.llm, mode="caps-pairs")          # not registered yet: refused, naming the choices
    caps_pairs.register(TRIPLE_EXTRACTORS)
    r = s.kg.build(s.llm, mode=s.settings.kg.mode)    # chosen by the setting, as a build chooses it
    triples = {(t.subject.name, t.relation, t.object.name) for t in s.kg.store().iter_triples()}
    assert triples == {("Mira", "teaches", "Optics"), ("Tomas", "visits", "Lisbon")}
    assert r.mode == "caps-pairs" and r.chunks_extracted == 2 and s.llm.provider.calls == []
    assert (workspace.root / "kg" / "extract-caps-pairs.jsonl").exists()   # its own journal: resumable
    assert s.kg.build(s.llm, mode="caps-pairs").chunks == 0


def test_a_new_instance_strategy_is_chosen_by_its_setting(workspace, embedder, plugin_dir):
    import one_per_doc

    from pyramid.build import build_pyramid
    from pyramid.config import load_settings
    from pyramid.corpus import Document
    from pyramid.llm.scripted import ScriptedProvider
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    one_per_doc.register(INSTANCE_EXTRACTORS)
    ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml", kg={"mode": "rules"},
                                                 ontology={"extract_method": "one-per-doc"}))
    s = Session(ws, provider=ScriptedProvider({}), embedder=embedder)
    r = build_pyramid(s, [Document(k, v) for k, v in DOCS.items()], schema=ROOT / "ontology_schemas" / "academic.ttl")
    steps = {x.step: x.outcome for x in r.steps}
    assert steps["ontology.extract"] == "2 documents, one instance each"
    cls = sorted(s.ontology.schema.classes)[0]
    rows = s.ontology.select(f"SELECT ?l WHERE {{ ?s a <{cls}> ; <http://www.w3.org/2000/01/rdf-schema#label> ?l }} "
                             "ORDER BY ?l")
    assert [row["l"] for row in rows] == ["m1", "m2"]


def test_plug_in_packages_register_through_their_entry_points(plugin_dir, monkeypatch):
    """What `[project.entry-points."polyrag.triple_extractors"]` in a package's metadata does: the
    registry loads the built-ins, then calls each entry point's `register`."""
    real = metadata.entry_points

    def entry_points(group=None, **kw):
        if group == "polyrag.triple_extractors":
            return [metadata.EntryPoint("caps", "caps_pairs:register", group)]
        return real(group=group, **kw)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    fresh = Registry("KG extraction mode", setting="kg.mode", group="polyrag.triple_extractors",
                     builtins=("pyramid.kg.extractors.rules",))
    assert fresh.names() == ["rules", "caps-pairs"]
    assert fresh.get("caps-pairs").description == "capitalised words and the verb between"


def test_an_unknown_name_is_refused_with_the_choices():
    with pytest.raises(ConfigError) as err:
        INSTANCE_EXTRACTORS.get("guess")
    assert "unknown instance extraction method 'guess'" in str(err.value)
    assert all(n in str(err.value) for n in ("grounded", "chunk", "read"))
    registry: Registry = Registry("thing", setting="x.y", group="polyrag.none", builtins=())
    registry.register(Entry("a", dict))
    assert registry.names() == ["a"] and "a" in registry and "b" not in registry
