"""The ontology answerer's context: what planning needs from the layer, built once per store generation.

    ctx = contexts.get(layer, cache_dir, background=False) -> OntologyContext
        the vocabulary, the label index, the value index and the class links of the store's current
        generation; the three indexes are persisted in the workspace cache, keyed by the generation, so
        a new process reads them instead of rebuilding them.

A server (`background=True`, set by `Session.serving`) does not make every request wait while the
indexes of a new generation are built (seconds on a few thousand instances, after every import): the
requests go on with the last generation's indexes and one thread builds the new ones. The queries
always read the store's current generation, so an answer holds the current data; only what the
question's words link to lags one write behind (a thing just imported is found a few seconds later).
The answer's trace says so. The first context of a process is always built in the foreground.
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from pyramid.ontology.labels import LabelIndex
from pyramid.ontology.layer import OntologyLayer
from pyramid.ontology.values import ValueIndex
from pyramid.vocab import Vocab

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
LABELS_CACHE = "ontology-labels.json"
VALUES_CACHE = "ontology-values.json"
LINKS_CACHE = "ontology-links.json"
LINKS_FORMAT = 4  # the links cache's layout; a file of another is rebuilt
MANY_VALUED_SHARE = 0.5  # a property "held once per thing" where fewer than this share of things have two
VALUE_SAMPLE = 200  # values per datatype property read to see whether they name other instances

log = logging.getLogger(__name__)


@dataclass
class OntologyContext:
    """What answering needs from the layer for one store generation (`fingerprint`)."""

    vocab: Vocab
    index: LabelIndex
    values: ValueIndex
    links: dict[str, set[tuple[str, str, str]]]  # class → (object property, "out" | "in", class) in the data
    value_classes: dict[str, str]                # datatype property → the class its values name (codes of others)
    single: frozenset[tuple[str, str]] = frozenset()  # (object property, "out" | "in"): one value per thing there
    # (property, "out" | "in", class) → the share of that class's things that hold the property at that end
    held: dict[tuple[str, str, str], float] = field(default_factory=dict)
    stale: bool = False                          # the previous generation's, while the current one's is built

    @property
    def fingerprint(self) -> str:
        return self.index.fingerprint


def build_context(layer: OntologyLayer, cache_dir: Path, fp: str) -> OntologyContext:
    """The context of generation `fp`, from the cache files when they are of it."""
    layer.store.warm()  # the query process starts while the indexes load
    vocab = Vocab.from_schema(layer.schema)
    cache_dir.mkdir(parents=True, exist_ok=True)  # cache files: written atomically, no lock needed
    index = LabelIndex.load(cache_dir / LABELS_CACHE, fp)
    if index is None:
        index = LabelIndex.from_select(layer.select_trusted, fingerprint=fp)
        index.save(cache_dir / LABELS_CACHE)
    values = ValueIndex.load(cache_dir / VALUES_CACHE, fp)
    if values is None:
        values = ValueIndex.from_select(layer.select_trusted, vocab, fingerprint=fp)
        values.save(cache_dir / VALUES_CACHE)
    cached = _load_links(cache_dir / LINKS_CACHE, fp)
    if cached is None:
        cached = (class_links(layer.select_trusted), value_classes(layer.select_trusted, vocab, index),
                  one_valued(layer.select_trusted), held_shares(layer.select_trusted))
        _save_links(cache_dir / LINKS_CACHE, fp, *cached)
    return OntologyContext(vocab, index, values, *cached)


class Contexts:
    """One context per layer object (a session's), rebuilt when the store's generation changes."""

    def __init__(self) -> None:
        self._ready: weakref.WeakKeyDictionary[OntologyLayer, OntologyContext] = weakref.WeakKeyDictionary()
        self._locks: weakref.WeakKeyDictionary[OntologyLayer, threading.Lock] = weakref.WeakKeyDictionary()
        self._guard = threading.Lock()

    def _lock(self, layer: OntologyLayer) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(layer, threading.Lock())

    def get(self, layer: OntologyLayer, cache_dir: Path, *, background: bool = False) -> OntologyContext:
        fp = layer.store.generation
        ctx = self._ready.get(layer)
        if ctx is not None and ctx.fingerprint == fp:
            return ctx
        if ctx is not None and background:
            self._build_later(layer, cache_dir)
            return OntologyContext(ctx.vocab, ctx.index, ctx.values, ctx.links, ctx.value_classes, ctx.single,
                                   ctx.held, stale=True)
        with self._lock(layer):  # one build per layer at a time; a build that finished meanwhile serves
            return self._build(layer, cache_dir)

    def _build(self, layer: OntologyLayer, cache_dir: Path) -> OntologyContext:
        """Under the layer's lock: the current generation's context (built only when not already)."""
        fp = layer.store.generation
        ctx = self._ready.get(layer)
        if ctx is None or ctx.fingerprint != fp:
            ctx = self._ready[layer] = build_context(layer, cache_dir, fp)
        return ctx

    def _build_later(self, layer: OntologyLayer, cache_dir: Path) -> None:
        lock = self._lock(layer)
        if not lock.acquire(blocking=False):
            return  # a build is running; the next request after it looks at the generation again

        def run() -> None:
            try:
                self._build(layer, cache_dir)
            except Exception:  # noqa: BLE001 - a foreground request builds it again and reports the error
                log.exception("building the ontology's indexes in the background failed")
                self._ready.pop(layer, None)
            finally:
                lock.release()

        threading.Thread(target=run, name="ontology-context", daemon=True).start()


contexts = Contexts()


def class_links(select) -> dict[str, set[tuple[str, str, str]]]:
    """For each class, the object properties its instances take part in and the classes at the other
    end, seen from the class ("out": its instance is the subject): the second steps of readings."""
    rows = select(f"SELECT DISTINCT ?c1 ?p ?c2 WHERE {{ ?x ?p ?y FILTER(isIRI(?y) && ?p != <{RDF_TYPE}>) "
                  "?x a ?c1 . ?y a ?c2 }")
    out: dict[str, set[tuple[str, str, str]]] = {}
    for r in rows:
        out.setdefault(r["c1"], set()).add((r["p"], "out", r["c2"]))
        out.setdefault(r["c2"], set()).add((r["p"], "in", r["c1"]))
    return out


def one_valued(select) -> frozenset[tuple[str, str]]:
    """The object properties the data holds once per thing at one end: (IRI, "out") where most subjects
    have one value, (IRI, "in") where most values have one subject (a ward has one head). A count along
    one of them is one, so it is seldom what "how many" asks."""
    out: set[tuple[str, str]] = set()
    for way, one, other in (("out", "?x", "?y"), ("in", "?y", "?x")):
        rows = select(f"SELECT ?p (SUM(IF(?n > 1, 1, 0)) AS ?many) (COUNT(*) AS ?all) WHERE {{ {{ SELECT ?p {one} "
                      f"(COUNT(DISTINCT {other}) AS ?n) WHERE {{ ?x ?p ?y FILTER(isIRI(?y) && ?p != <{RDF_TYPE}>) }} "
                      f"GROUP BY ?p {one} }} }} GROUP BY ?p")
        # once for most things, not all: pages read by a machine give some things a second value by mistake
        out |= {(r["p"], way) for r in rows if float(r["many"]) <= MANY_VALUED_SHARE * float(r["all"])}
    return frozenset(out)


def held_shares(select) -> dict[tuple[str, str, str], float]:
    """Per property, end and class: the share of the class's things that hold the property there ("out": as its
    subject). That a thing lacks what most of its kind hold says more than lacking what few do."""
    sizes = {r["c"]: float(r["n"]) for r in select("SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a ?c } GROUP BY ?c")}
    out: dict[tuple[str, str, str], float] = {}
    for way, pattern in (("out", "?x ?p ?y"), ("in", "?y ?p ?x")):
        rows = select(f"SELECT ?p ?c (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {pattern} FILTER(?p != <{RDF_TYPE}>"
                      f"{' && isIRI(?y)' if way == 'in' else ''}) ?x a ?c }} GROUP BY ?p ?c")
        for r in rows:
            if sizes.get(r["c"]):
                out[(r["p"], way, r["c"])] = round(float(r["n"]) / sizes[r["c"]], 4)
    return out


def value_classes(select, vocab: Vocab, index: LabelIndex, sample: int = VALUE_SAMPLE) -> dict[str, str]:
    """Datatype properties whose values are the names or codes of *other* instances (a prerequisite
    stored as a subject code): property IRI → the class most of those instances are of, where at least
    half of a sample of its values name one (a code or label of the subject itself does not count)."""
    out: dict[str, str] = {}
    for p in vocab.properties:
        if p.kind != "datatype":
            continue
        rows = [r for r in select(f"SELECT ?s ?v WHERE {{ ?s <{p.iri}> ?v FILTER(isLiteral(?v)) }} LIMIT {sample}")
                if r.get("v", "").strip()]
        votes: dict[str, int] = {}
        for r in rows:
            links = index.link(r["v"], fuzzy=False)
            if links and all(lk.iri != r["s"] for lk in links):
                for c in {c for lk in links for c in lk.classes if c in vocab.by_iri}:
                    votes[c] = votes.get(c, 0) + 1
        best = max(votes.items(), key=lambda kv: (kv[1], kv[0]), default=None)
        if rows and best is not None and best[1] * 2 >= len(rows):
            out[p.iri] = best[0]
    return out


def _save_links(path: Path, fingerprint: str, links: dict[str, set[tuple[str, str, str]]],
                by_value: dict[str, str], single: frozenset[tuple[str, str]],
                held: dict[tuple[str, str, str], float]) -> None:
    from pyramid.workspace import atomic_write_json

    atomic_write_json(path, {"format": LINKS_FORMAT, "fingerprint": fingerprint, "value_classes": by_value,
                             "links": {c: sorted(v) for c, v in links.items()}, "single": sorted(single),
                             "held": [[*k, v] for k, v in sorted(held.items())]})


def _load_links(path: Path, fingerprint: str) -> tuple[dict[str, set[tuple[str, str, str]]], dict[str, str],
                                                       frozenset[tuple[str, str]],
                                                       dict[tuple[str, str, str], float]] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("format") != LINKS_FORMAT or data.get("fingerprint") != fingerprint:
        return None
    return ({c: {tuple(x) for x in v} for c, v in data["links"].items()}, data["value_classes"],  # type: ignore[misc]
            frozenset(tuple(x) for x in data["single"]), {(p, w, c): v for p, w, c, v in data["held"]})
