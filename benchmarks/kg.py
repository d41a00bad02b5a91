"""KG layer benchmarks; each writes `reports/<name>.{json,md}`.

- kg-build:       build cost of each extraction mode (the f_kg cascade, single-call, grounded,
                  rules) on the first N multihop documents with the configured LLM (default: the embedded
                  SmolLM2-135M), cold cache.
- kg-search:      top-10 triple search latency over the PolyU KG (imported, real MiniLM vectors)
                  and over a synthetic graph (random unit vectors: latency does not depend on the
                  values, and 100k MiniLM embeddings would cost ~6 minutes of a 2-core machine).
- kg-import:      `kg import` of the released PolyU KG into a new workspace, cold embedding cache: rows/s,
                  and the time of name resolution, store writes and the triple index (both embed).
- kg-resolution:  entity resolution on hand-labelled name pairs: precision / recall of the merge
                  decision for normalisation alone and for embedding similarity per threshold.
- kg-sufficiency: Query_kg's decision on questions generated from the PolyU KG (answerable ones,
                  and two kinds of unanswerable: an unknown person, a relation the person lacks),
                  LLM alone vs model-free signals vs combined.

Embeddings are cached across runs in `<tmp>/polyrag-bench-cache/` so a rerun skips MiniLM.
"""

from __future__ import annotations

import hashlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.metrics import percentiles
from benchmarks.report import md_table, write_report
from pyramid.config import EmbeddingSettings
from pyramid.corpus import load_documents
from pyramid.embeddings import Embedder
from pyramid.kg.model import Entity, Triple
from pyramid.progress import NullProgress, Progress
from pyramid.session import Session
from pyramid.workspace import Workspace

CACHE = Path(tempfile.gettempdir()) / "polyrag-bench-cache"


def _embedder() -> Embedder:
    emb = Embedder(EmbeddingSettings(), CACHE / "embeddings.sqlite")
    emb.encode_raw(["warm up"])
    return emb


def _ms(seconds: list[float]) -> dict[str, float]:
    return {k: round(v * 1000, 3) for k, v in percentiles(seconds).items()}


# ------------------------------------------------------------------------------ kg-import
def run_import(data: Path, out_dir: Path, progress: Progress | None = None) -> dict[str, Any]:
    """One cold import (fresh workspace, empty caches); malformed rows skipped, as a user would. With
    bfloat16 embedding, how far its vectors are from float32's is measured beside it (not timed)."""
    with tempfile.TemporaryDirectory(prefix="polyrag-kg-import-") as tmp:
        ws = Workspace.init(Path(tmp) / "ws")
        session = Session(ws)
        session.embedder.encode_raw(["warm up"])  # model load is not the import's cost
        start = time.perf_counter()
        report = session.kg.import_file(data, on_error="skip", progress=progress)
        seconds = time.perf_counter() - start
        texts = report.loaded.resolution.get("names", 0) + report.loaded.index.get("added", 0)
        phases = report.loaded.seconds
        triple_texts = [t.text() for t in session.kg.index.load().triples]
        fidelity = precision_fidelity(session.embedder, triple_texts)
    precision = "bfloat16" if session.embedder.bf16 else "float32"
    data_out = {"file": str(data), "rows": report.rows, "skipped": len(report.skipped), "seconds": round(seconds, 1),
                "rows_per_s": round(report.rows / seconds, 1), "phases": phases, "texts_embedded": texts,
                "totals": report.totals, "resolution": report.loaded.resolution, "index": report.loaded.index,
                "precision": precision, "precision_fidelity": fidelity, "backend": ws.settings.kg.backend}
    md = ["# KG import", "", f"`kg import` of {data.name} into {ws.settings.kg.backend} (`kg.backend`): "
          f"{report.rows:,} rows ({len(report.skipped)} malformed rows skipped) in {seconds:.1f} s, "
          f"{report.rows / seconds:.0f} rows/s; graph {report.totals}; embedding "
          f"arithmetic {precision} (`embeddings.precision`).", "",
          md_table(["phase", "seconds", "share"],
                   [[k, v, f"{v / seconds:.0%}"] for k, v in phases.items()]
                   + [["other (read, check, state)", round(seconds - sum(phases.values()), 1),
                       f"{(seconds - sum(phases.values())) / seconds:.0%}"]]), "",
          "Resolution and the index both embed with MiniLM (names, then the triples' text): the import runs at "
          "the speed of its embedding."]
    if fidelity:
        md += ["", f"bfloat16 against float32 on {fidelity['texts']:,} of the triple texts (one seed): cosine of "
               f"each text's two vectors mean {fidelity['cosine_mean']:.6f}, min {fidelity['cosine_min']:.6f}; "
               f"{fidelity['queries']} of them asked as questions (the numpy encoder, float32) share "
               f"{fidelity['top10_shared']:.1%} of their top-10 over the sample; raw speed "
               f"{fidelity['bf16_texts_per_s']:.0f} against {fidelity['fp32_texts_per_s']:.0f} texts/s in one process."]
    write_report(out_dir, "kg-import", data_out, "\n".join(md) + "\n")
    return data_out


def precision_fidelity(embedder: Embedder, texts: list[str], *, n: int = 2000, queries: int = 200,
                       seed: int = 0) -> dict[str, Any] | None:
    """How far bfloat16's vectors are from float32's on a sample of `texts` (None in float32)."""
    from pyramid.embed_pool import encode

    if not embedder.bf16 or not texts:
        return None
    sample = random.Random(seed).sample(texts, min(n, len(texts)))
    timed = {}
    for bf16 in (False, True):
        start = time.perf_counter()
        timed[bf16] = (encode(embedder.model, sample, "", embedder.cfg.batch_size, bf16=bf16),
                       time.perf_counter() - start)
    exact, half = timed[False][0], timed[True][0]
    cos = np.sum(exact * half, axis=1)
    asked = sample[:queries]
    q = embedder.light.encode(asked) if embedder.light is not None else exact[:len(asked)]
    top = [np.argsort(-(m @ q.T), axis=0, kind="stable")[:10] for m in (exact, half)]
    shared = float(np.mean([len(set(top[0][:, i]) & set(top[1][:, i])) / 10 for i in range(len(asked))]))
    return {"texts": len(sample), "cosine_mean": round(float(cos.mean()), 7), "cosine_min": round(float(cos.min()), 7),
            "queries": len(asked), "top10_shared": round(shared, 4),
            "fp32_texts_per_s": round(len(sample) / timed[False][1], 1),
            "bf16_texts_per_s": round(len(sample) / timed[True][1], 1)}


# ------------------------------------------------------------------------------ kg-build
def run_build(data: Path, out_dir: Path, *, n_docs: int = 50,
              modes: tuple[str, ...] = ("single", "cascade", "grounded", "rules"),
              progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    docs = load_documents(data, fmt="csv").documents[:n_docs]
    emb = _embedder()
    results = {}
    for mode in modes:
        with tempfile.TemporaryDirectory(prefix=f"polyrag-kgbuild-{mode}-") as tmp:
            session = Session(Workspace.init(Path(tmp) / "ws"), embedder=emb)
            session.corpus.update(docs)
            r = session.kg.build(session.llm, mode=mode, progress=progress)  # type: ignore[arg-type]
            d = r.to_dict()
            d["llm"] = session.llm.name
            results[mode] = d
    data_out = {"data": data.name, "documents": len(docs), "modes": results}
    write_report(out_dir, "kg-build", data_out, build_markdown(data_out))
    return data_out


def build_markdown(report: dict[str, Any]) -> str:
    """The kg-build table from its JSON (so the markdown can be redone without rebuilding)."""
    rows = []
    for mode, d in report["modes"].items():
        res, u = d["loaded"]["resolution"], d["usage"]
        n, c = max(d["documents"] + d["documents_pending"], 1), max(d["chunks"], 1)
        rows.append([mode, n, d["chunks"], u["calls"], round(u["calls"] / n, 2),
                     round((u["prompt_tokens"] + u["completion_tokens"]) / n, 1), round(u["seconds"] / n, 2),
                     round(u["seconds"] / c, 2), d["triples_extracted"], d["totals"].get("entities", 0),
                     d["dropped_ungrounded"], d["duplicates_dropped"],
                     f"{res.get('mentions', 0)} → {d['loaded']['entities']}",
                     f"{res.get('exact_merges', 0)} / {res.get('embedding_merges', 0)}", len(d["failed_chunks"])])
    first = next(iter(report["modes"].values()))
    return "\n".join([
        "# KG build cost (`polyrag bench kg-build`)", "",
        f"First {report['documents']} documents of {report.get('data', 'documents.csv')}; LLM {first['llm']}; "
        "cold LLM cache; seconds are time spent in the model. Entity columns: every triple has two "
        "*mentions*; mentions of one spelling are one entity, and *spellings merged* counts different "
        "spellings joined into one entity by normalisation (case, punctuation, titles) / by embedding "
        "similarity.", "",
        md_table(["mode", "docs", "chunks", "LLM calls", "calls/doc", "tokens/doc", "s/doc", "s/chunk", "triples",
                  "entities", "dropped (not in chunk)", "duplicate triples dropped", "entity mentions → entities",
                  "spellings merged (normalisation / embedding)", "failed chunks"], rows)])


# ------------------------------------------------------------------------------ kg-search
class _HashEmbedder:
    """Deterministic random unit vectors per text (synthetic graph only: latency, not quality)."""

    model_id = "synthetic-random-unit-vectors"
    dim = 384

    def embed(self, texts, *, kind="document", progress=None, use_cache=True) -> np.ndarray:
        out = np.empty((len(texts), self.dim), np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.sha1(t.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        if progress:
            progress(len(texts))
        return out


def synthetic_triples(n: int, seed: int = 0) -> list[Triple]:
    rng = random.Random(seed)
    people = [Entity.named(f"Person {i}", "PERSON") for i in range(max(n // 5, 10))]
    things = [Entity.named(f"Topic {i}", "CONCEPT") for i in range(max(n // 10, 10))]
    rels = ["works on", "collaborates with", "teaches", "is member of", "published in", "supervises",
            "graduated from", "has research interest in", "won", "is located in"]
    out = []
    for i in range(n):
        s = rng.choice(people)
        o = rng.choice(people) if rng.random() < 0.3 else rng.choice(things)
        if o.id == s.id:
            o = things[i % len(things)]
        out.append(Triple.make(s, rng.choice(rels), o, source=f"syn{i}", doc_id=f"syn{i // 1000}",
                               properties={"year": str(1990 + i % 35)} if i % 4 == 0 else None))
    return out


REPEAT = 3  # runs per query: the fastest is reported, and the first run alone as a plain single run


def _runs(fn) -> list[float]:
    out = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _latency(runs: list[list[float]], name: str) -> dict[str, Any]:
    """p50/p95 of each query's fastest run (other work on the shared machine only ever adds time)
    and of each query's first run (what one search costs when nobody repeats it)."""
    return {f"{name}_ms": _ms([min(r) for r in runs]), f"{name}_single_ms": _ms([r[0] for r in runs])}


def _time_search(kg, questions: list[str], embedder, k: int = 10) -> dict[str, Any]:
    qvecs = embedder.embed(questions, kind="query")
    kg.search(questions[0], k=k, query_vector=qvecs[0])  # warm
    # (each lambda runs inside _runs at once, so the loop variables are bound through defaults for ruff)
    excl = [_runs(lambda q=q, qv=qv: kg.search(q, k=k, query_vector=qv)) for q, qv in zip(questions, qvecs)]
    incl = [_runs(lambda q=q: kg.search(q, k=k, query_vector=embedder.embed([q], kind="query",
                                                                            use_cache=False)[0]))
            for q in questions[:50]]
    expand = [_runs(lambda q=q, qv=qv: kg.search(q, k=k, query_vector=qv, expand=True))
              for q, qv in list(zip(questions, qvecs))[:50]]
    return {**_latency(excl, "excluded"), **_latency(incl, "included"), **_latency(expand, "expand"),
            "queries": len(questions), "queries_included": len(incl), "repeat": REPEAT}


def _questions(triples: list[Triple], n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [f"{t.subject.name} {t.relation} what?" for t in rng.sample(triples, min(n, len(triples)))]


def run_search(data: Path, out_dir: Path, *, synthetic: int = 100_000, n_queries: int = 200,
               progress: Progress | None = None) -> dict[str, Any]:
    progress = progress or NullProgress()
    emb = _embedder()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="polyrag-kgsearch-") as tmp:
        session = Session(Workspace.init(Path(tmp) / "polyu"), embedder=emb)
        t0 = time.perf_counter()
        rep = session.kg.import_file(data, on_error="skip", progress=progress)  # 4 rows have empty objects
        import_s = time.perf_counter() - t0
        triples = list(session.kg.index.triples)
        polyu = _time_search(session.kg, _questions(triples, n_queries), emb)
        polyu.update(triples=len(triples), import_seconds=round(import_s, 1), resolution=rep.loaded.resolution,
                     entities=rep.totals.get("entities"), rows=rep.rows, skipped=rep.skipped)
        results["polyu"] = polyu
        session.kg.close()

        syn_ws = Workspace.init(Path(tmp) / "synthetic")
        fake = _HashEmbedder()
        from pyramid.kg.layer import KGLayer

        kg = KGLayer(syn_ws, fake)  # type: ignore[arg-type]
        syn = synthetic_triples(synthetic)
        with syn_ws.writing("bench"):
            t0 = time.perf_counter()
            kg.store(write=True).upsert([], syn)
            store_s = time.perf_counter() - t0
            kg.index.sync(syn, progress=progress)
        stats = _time_search(kg, _questions(syn, n_queries), fake)
        # "included" for the synthetic graph adds a real MiniLM query embedding to the same search
        incl = [_runs(lambda q=q: (emb.embed([q], kind="query", use_cache=False),
                               kg.search(q, k=10, query_vector=fake.embed([q])[0])))
                for q in _questions(syn, 50, seed=1)]
        stats.update(_latency(incl, "included"))
        stats.update(triples=len(syn), store_upsert_seconds=round(store_s, 2))
        results["synthetic"] = stats
        results["backend"] = syn_ws.settings.kg.backend
        kg.close()
    def row(name: str, r: dict[str, Any], kind: str) -> list[Any]:
        cols = [r[f"{m}{kind}_ms"][p] for m in ("excluded", "included", "expand") for p in ("p50", "p95")]
        return [name, r["triples"], *cols]

    backend = results.pop("backend")

    headers = ["graph", "triples", "p50 ms (query embedding excluded)", "p95 ms", "p50 ms (included)", "p95 ms",
               "p50 ms (+1-hop expansion)", "p95 ms"]
    res = results["polyu"]["resolution"]
    md = ["# KG triple search latency (`polyrag bench kg-search`)", "",
          f"Top-10 by cosine (exact `np.dot` over unit float32 rows), {n_queries} queries per graph; "
          "'included' embeds the query with MiniLM (cache off), 50 queries; 'expand' adds the 1-hop "
          f"relations of the hits' entities from the graph store ({backend}, `kg.backend`).", "",
          f"Fastest of {REPEAT} runs per query (other work on the shared 2-core machine only ever adds time):", "",
          md_table(headers, [row(n, r, "") for n, r in results.items()]), "",
          "Single runs (each query's first run, no best-of):", "",
          md_table(headers, [row(n, r, "_single") for n, r in results.items()]), "",
          f"PolyU import: {results['polyu']['rows']} good rows ({len(results['polyu']['skipped'])} skipped: "
          f"{'; '.join(results['polyu']['skipped'])}) → {results['polyu']['triples']} triples, "
          f"{results['polyu']['entities']} entities from "
          f"{res['names']} distinct names ({res['exact_merges']} merged by normalisation, "
          f"{res['embedding_merges']} by embedding similarity at {session.settings.kg.resolve_threshold}, "
          f"{res['type_conflicts_refused']} refused for types, {res['unseen_mismatch_refused']} refused because "
          f"their numbers or CJK characters differ) in {results['polyu']['import_seconds']} s (MiniLM cache "
          f"warm on a rerun). Synthetic graph: {synthetic} triples written "
          f"to {backend} in {results['synthetic']['store_upsert_seconds']} s (one transaction)."]
    write_report(out_dir, "kg-search", {**results, "backend": backend}, "\n".join(md))
    return results


# ------------------------------------------------------------------------------ kg-resolution
# (name a, type a, name b, type b, same entity?) — written by hand from the PolyU and multihop data:
# title and case variants, abbreviations, near-miss names that must stay apart, and type clashes.
LABELLED_PAIRS: list[tuple[str, str, str, str, bool]] = [
    ("Dr Margo Louise Turnbull", "PERSON", "Margo Louise Turnbull", "PERSON", True),
    ("Prof. CW Brian KEI", "PERSON", "CW Brian Kei", "PERSON", True),
    ("Dr XUE Haiyang", "PERSON", "Xue Haiyang", "", True),
    ("SUN Yuxiang 孫宇翔 (Dr)", "PERSON", "Dr SUN Yuxiang", "PERSON", True),
    ("Ir Prof. Keith K.C. Chan", "PERSON", "Keith K. C. Chan", "PERSON", True),
    ("Haiyan Song", "PERSON", "Prof. Haiyan SONG", "PERSON", True),
    ("The Hong Kong Polytechnic University", "ORGANIZATION", "Hong Kong Polytechnic University", "ORGANIZATION", True),
    ("PolyU", "ORGANIZATION", "The Hong Kong Polytechnic University", "ORGANIZATION", True),
    ("Department of Industrial and Systems Engineering", "ORGANIZATION",
     "Dept. of Industrial and Systems Engineering", "ORGANIZATION", True),
    ("School of Accounting and Finance of PolyU", "ORGANIZATION", "School of Accounting and Finance", "ORGANIZATION", True),
    ("Real Madrid", "ORGANIZATION", "Real Madrid C.F.", "ORGANIZATION", True),
    ("Real Madrid", "ORGANIZATION", "Real Madrid CF", "", True),
    ("St. Louis Blues", "ORGANIZATION", "St Louis Blues", "ORGANIZATION", True),
    ("Paris Saint-Germain", "ORGANIZATION", "Paris Saint Germain", "ORGANIZATION", True),
    ("Paris Saint-Germain", "ORGANIZATION", "PSG", "ORGANIZATION", True),
    ("2002 FIFA World Cup", "EVENT", "FIFA World Cup 2002", "EVENT", True),
    ("Salt Lake City, Utah", "PLACE", "Salt Lake City", "PLACE", True),
    ("United States", "PLACE", "United States of America", "PLACE", True),
    ("United States", "PLACE", "USA", "PLACE", True),
    ("tourism forecasting methodologies", "CONCEPT", "tourism forecasting methodology", "CONCEPT", True),
    ("transdermal drug delivery system", "CONCEPT", "transdermal drug delivery systems", "", True),
    ("Cristiano Ronaldo", "PERSON", "Ronaldo", "PERSON", True),
    ("jaguars", "CONCEPT", "jaguar", "CONCEPT", True),
    ("Golden Shoe", "WORK", "Golden Boot", "WORK", True),
    ("e-commerce", "CONCEPT", "ecommerce", "CONCEPT", True),
    ("2002 FIFA World Cup", "EVENT", "2006 FIFA World Cup", "EVENT", False),
    ("Winter 2002 Olympics", "EVENT", "Summer 1996 Olympics", "EVENT", False),
    ("Dr Wang Wenyi", "PERSON", "Dr Wang Wenjie", "PERSON", False),
    ("Dr Zhang Miao", "PERSON", "Dr Zhang Min", "PERSON", False),
    ("Department of Computing", "ORGANIZATION", "Department of Mathematics", "ORGANIZATION", False),
    ("Faculty of Engineering", "ORGANIZATION", "Faculty of Business", "ORGANIZATION", False),
    ("Paris", "PLACE", "Paris Saint-Germain", "ORGANIZATION", False),
    ("Paris", "PLACE", "Paris", "PERSON", False),
    ("Jordan", "PLACE", "Michael Jordan", "PERSON", False),
    ("Washington", "PLACE", "George Washington", "PERSON", False),
    ("Amazon", "ORGANIZATION", "Amazon rainforest", "PLACE", False),
    ("Amazon", "ORGANIZATION", "Amazon", "PLACE", False),
    ("Real Madrid", "ORGANIZATION", "Atletico Madrid", "ORGANIZATION", False),
    ("Manchester United", "ORGANIZATION", "Manchester City", "ORGANIZATION", False),
    ("St. Louis Blues", "ORGANIZATION", "St. Louis Cardinals", "ORGANIZATION", False),
    ("Ligue 1", "EVENT", "Ligue 2", "EVENT", False),
    ("Stanley Cup", "WORK", "Davis Cup", "WORK", False),
    ("capybaras", "CONCEPT", "black caimans", "CONCEPT", False),
    ("deer", "CONCEPT", "fish", "CONCEPT", False),
    ("associate professor", "CONCEPT", "assistant professor", "CONCEPT", False),
    ("PhD students", "CONCEPT", "MPhil students", "CONCEPT", False),
    ("machine learning", "CONCEPT", "deep learning", "CONCEPT", False),
    ("Hong Kong", "PLACE", "Hong Kong Polytechnic University", "ORGANIZATION", False),
    ("Karim Benzema", "PERSON", "Kylian Mbappe", "PERSON", False),
    ("Derrick Rose", "PERSON", "Derrick Rose Garden", "PLACE", False),
    ("+852 2766 5679", "", "+852 2766 5697", "", False),                       # merged by MiniLM at 0.999
    ("electro-caloric effect at high electric field", "CONCEPT",
     "electro-caloric effect at low electric field", "CONCEPT", False),
]
THRESHOLDS = (0.75, 0.8, 0.85, 0.88, 0.9, 0.92, 0.95)


def _prf(decisions: list[bool], gold: list[bool]) -> dict[str, float]:
    tp = sum(d and g for d, g in zip(decisions, gold))
    fp = sum(d and not g for d, g in zip(decisions, gold))
    fn = sum(g and not d for d, g in zip(decisions, gold))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 3),
            "merged": tp + fp, "wrong_merges": fp}


def resolution_decisions(embedder: Embedder | None, threshold: float, *, use_types: bool = True) -> list[bool]:
    """The resolver's merge decision for every labelled pair (each pair resolved on its own)."""
    from pyramid.kg.resolve import EntityResolver

    resolver = EntityResolver(embedder, threshold)
    out = []
    for a, ta, b, tb, _ in LABELLED_PAIRS:
        if not use_types:
            ta = tb = ""
        got, _ = resolver.resolve([(a, ta), (b, tb)])
        out.append(got[(a, ta)].id == got[(b, tb)].id)
    return out


def run_resolution(out_dir: Path, progress: Progress | None = None) -> dict[str, Any]:
    emb = _embedder()
    gold = [p[4] for p in LABELLED_PAIRS]
    rows, results = [], {}
    results["normalisation only"] = _prf(resolution_decisions(None, 1.0), gold)
    for th in THRESHOLDS:
        results[f"+ embedding ≥ {th}"] = _prf(resolution_decisions(emb, th), gold)
    results["+ embedding ≥ 0.85, types ignored"] = _prf(resolution_decisions(emb, 0.85, use_types=False), gold)
    for name, m in results.items():
        rows.append([name, m["precision"], m["recall"], m["f1"], m["merged"], m["wrong_merges"]])
    n_same = sum(gold)
    md = ["# Entity resolution (`polyrag bench kg-resolution`)", "",
          f"{len(gold)} hand-labelled name pairs ({n_same} same entity, {len(gold) - n_same} different; "
          "`benchmarks/kg.py` LABELLED_PAIRS). Each pair is resolved on its own by the real resolver "
          "(MiniLM over normalised names); a merge is a positive.", "",
          md_table(["stage", "precision", "recall", "F1", "pairs merged", "wrong merges"], rows)]
    write_report(out_dir, "kg-resolution", {"pairs": len(gold), "results": results}, "\n".join(md))
    return results


# ------------------------------------------------------------------------------ kg-sufficiency
FAKE_PEOPLE = ["Dr Elena Marsh-Okafor", "Prof. Tobias Lindqvist-Arden", "Dr Wirawan Castellano",
               "Prof. Ingrid Halvorsen-Mbeki", "Dr Quentin Abernathy-Lau"]
GENERIC = {"is", "has", "are", "is a", "is an", "have", "was"}


def labelled_questions(triples: list[Triple], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """n answerable, n about an unknown person, n asking a relation the person does not have. The
    triples are taken in id order, so the questions do not depend on the store's iteration order."""
    rng = random.Random(seed)
    triples = sorted(triples, key=lambda t: t.id)
    people = [t for t in triples if t.relation not in GENERIC and len(t.subject.name.split()) >= 2
              and len(t.relation.split()) >= 2]
    have = {(t.subject.id, t.relation) for t in triples}
    names = {t.subject.norm for t in triples} | {t.object.norm for t in triples}
    rng.shuffle(people)
    out: list[dict[str, Any]] = []
    for t in people[:n]:
        out.append({"question": f"{t.subject.name} {t.relation} what?", "sufficient": True,
                    "kind": "answerable", "gold": t.object.name})
    for i, t in enumerate(people[n:2 * n]):
        fake = FAKE_PEOPLE[i % len(FAKE_PEOPLE)]
        assert Entity.named(fake).norm not in names
        out.append({"question": f"{fake} {t.relation} what?", "sufficient": False, "kind": "unknown entity"})
    pool = people[2 * n:]
    for t in pool[: n * 5]:
        other = rng.choice(pool)
        if (t.subject.id, other.relation) not in have and other.relation != t.relation:
            out.append({"question": f"{t.subject.name} {other.relation} what?", "sufficient": False,
                        "kind": "missing relation"})
        if sum(q["kind"] == "missing relation" for q in out) >= n:
            break
    return out


def run_sufficiency(data: Path, out_dir: Path, *, n: int = 10, progress: Progress | None = None) -> dict[str, Any]:
    from pyramid.types import Tracer
    from querying.kg_qa import decide, judge, resolve_mode

    progress = progress or NullProgress()
    emb = _embedder()
    with tempfile.TemporaryDirectory(prefix="polyrag-kgsuff-") as tmp:
        session = Session(Workspace.init(Path(tmp) / "ws"), embedder=emb)
        session.kg.import_file(data, resolve="exact", on_error="skip", progress=progress)
        cfg = session.settings.kg
        qs = labelled_questions(session.kg.index.triples, n)
        task = progress.task("sufficiency questions", len(qs))
        for q in qs:
            hits = session.kg.search(q["question"], k=cfg.k)
            v = judge(session.llm, q["question"], hits, Tracer(session.meter), mode="llm", min_score=cfg.min_score,
                      overlap_yes=cfg.overlap_yes)
            q["llm_yes"], q["signal_values"], q["llm_error"] = v.llm_yes, v.signals.to_dict(), v.llm_error
            for mode in ("llm", "signals", "combined"):
                q[mode] = decide(mode, v.llm_yes, v.signals, cfg.min_score, cfg.overlap_yes)[0]
            q["answer"] = v.text
            task.advance()
        task.done()
        llm_name, llm = session.llm.name, session.llm
        session.kg.close()
    gold = [q["sufficient"] for q in qs]
    results = {mode: {**_prf([q[mode] for q in qs], gold),
                      "accuracy": round(sum(q[mode] == q["sufficient"] for q in qs) / len(qs), 3),
                      **{f"yes on {kind}": sum(q[mode] for q in qs if q["kind"] == kind)
                         for kind in ("answerable", "unknown entity", "missing relation")}}
               for mode in ("llm", "signals", "combined")}
    counts = {kind: sum(q["kind"] == kind for q in qs) for kind in ("answerable", "unknown entity", "missing relation")}
    rows = [[mode, r["accuracy"], r["precision"], r["recall"], r["f1"], r["yes on answerable"],
             r["yes on unknown entity"], r["yes on missing relation"]] for mode, r in results.items()]
    md = ["# Query_kg sufficiency (`polyrag bench kg-sufficiency`)", "",
          f"{len(qs)} questions generated from the PolyU KG (seed 0): {counts['answerable']} answerable "
          f"('<subject> <relation> what?' from a KG triple), {counts['unknown entity']} about a person not in "
          f"the KG, {counts['missing relation']} asking a relation the person lacks. LLM {llm_name}; top-{cfg.k} "
          f"triples; min_score {cfg.min_score}, overlap_yes {cfg.overlap_yes}. 'yes' is 'sufficient'; "
          f"{sum(bool(q['llm_error']) for q in qs)} LLM replies failed their schema after retries and count as "
          "'no'. The "
          f"default `kg.sufficiency = auto` is `{resolve_mode('auto', llm)}` with this LLM. The 'missing "
          "relation' label is noisy: the person may hold a reworded relation with the same meaning.", "",
          md_table(["decision", "accuracy", "precision", "recall", "F1",
                    f"yes on answerable (of {counts['answerable']})",
                    f"yes on unknown entity (of {counts['unknown entity']})",
                    f"yes on missing relation (of {counts['missing relation']})"], rows)]
    write_report(out_dir, "kg-sufficiency", {"questions": qs, "results": results}, "\n".join(md))
    return results
