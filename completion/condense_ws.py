"""`polyrag kg condense WORKSPACE`: condensation applied to the workspace's graph store, reversibly.

Writes, in this order, under the workspace lock:
1. WS/completion/condensation.json — the journal: every run's canonical names and the full rows of
   the triples folded into another edge (written first, so an interrupted run can still be undone);
2. the canonical names on the edges (`set_canonical`; each edge keeps its relation text);
3. the folded duplicates deleted from the store; then the KG index is synced.
`--undo` re-inserts every folded triple from the journal and gives each edge back the canonical name
its relation text had before the first condense: exactly the state before condensation.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from completion.condensation import Condensation, condense
from completion.condense_measure import (
    FactCounts,
    TokenCounts,
    count_facts,
    count_tokens,
    minilm_token_counter,
)
from completion.errors import CompletionError
from completion.linking import NameLinker
from completion.types import KGTriple, OntologyView
from pyramid.errors import Hint
from pyramid.workspace import atomic_write_json

JOURNAL = "condensation.json"


@dataclass
class CondenseReport:
    mode: str
    facts: FactCounts
    tokens: TokenCounts
    anchors: int
    llm_failures: int
    seconds: float


def sample_questions(view: OntologyView, triples: Sequence[KGTriple], n: int = 30) -> list[str]:
    """Questions about the ontology's attributes for typed KG subjects ('What is the has research
    interest of Prof. X?'): what a user of the pyramid asks, without needing a question file."""
    from completion.names import humanise

    typing = NameLinker(view.instances).link(t.subject for t in triples)
    subjects: dict[str, list[str]] = defaultdict(list)
    for t in triples:
        cls = typing.cls(t.subject)
        if cls and t.subject not in subjects[cls]:
            subjects[cls].append(t.subject)
    out: list[str] = []
    i = 0
    while len(out) < n and view.pairs and any(subjects.values()):
        pair = view.pairs[i % len(view.pairs)]
        names = subjects.get(pair.cls) or []
        if names:
            out.append(f"What is the {humanise(pair.attribute, pair.attribute_label)} of "
                       f"{names[(i // len(view.pairs)) % len(names)]}?")
        i += 1
        if i > 50 * n:
            break
    return out


def require_kg(session) -> None:
    if not session.kg.exists:
        raise CompletionError(f"workspace {session.ws.root} has no knowledge graph yet",
                              hint=Hint(action="build_kg", target=str(session.ws.root)))


def condense_workspace(session, view: OntologyView, *, mode: str = "cluster", questions: Sequence[str] = (),
                       progress=None) -> CondenseReport:
    from pyramid.kg.store import triple_row

    cfg = session.settings.completion
    kg = session.kg
    require_kg(session)
    start = time.perf_counter()
    with session.ws.writing("kg condense"):
        store = kg.store(write=True)
        originals = {t.id: t for t in store.iter_triples()}
        if not originals:
            raise CompletionError(f"workspace {session.ws.root} has no KG triples to condense")
        triples = [KGTriple(t.id, t.subject.name, t.relation, t.object.name, t.chunk_id, t.doc_id)
                   for t in originals.values()]
        typing = NameLinker(view.instances).link(t.subject for t in triples)
        embed = lambda texts: session.embedder.embed(list(texts))
        decided, failures = {}, 0
        if mode == "llm":
            from completion.condense_llm import llm_decisions

            decided, failures = llm_decisions(session.llm, view.pairs, triples, typing, embed, cfg.condense_k)
        cond = condense(triples, view.pairs, typing, embed, k=cfg.condense_k, threshold=cfg.condense_threshold,
                        max_relations=cfg.condense_max_relations, decided=decided)
        facts = count_facts(triples, cond)
        qs = list(questions) or sample_questions(view, triples)
        tokens = count_tokens(triples, cond, qs, minilm_token_counter())
        _journal(session, cond, originals, triple_row, mode)
        by_canonical: dict[str, list[str]] = defaultdict(list)
        for text, canonical in cond.canonical_of.items():
            by_canonical[canonical].append(text)
        for canonical, texts in by_canonical.items():
            store.set_canonical(texts, canonical)
        # A folded duplicate has the ends of the edge it was folded into, which stays: the store's sweep
        # of entities left without edges finds none of this run's (undo re-creates ends from the journal).
        store.delete_triples([m.id for e in cond.edges for m in e.merged])
        kg.sync_index(progress=progress)
        seconds = time.perf_counter() - start
        session.ws.record_step("kg.condense", seconds=seconds, layer="kg",
                               counts={"triples": facts.triples_after, "relations": facts.relations_before,
                                       "canonical_relations": facts.relations_after})
    return CondenseReport(mode, facts, tokens, len(view.pairs), failures, seconds)


def _journal(session, cond: Condensation, originals: dict, triple_row, mode: str) -> None:
    path = session.ws.path("completion", JOURNAL)
    runs = json.loads(path.read_text(encoding="utf-8"))["runs"] if path.exists() else []
    runs.append({"made": datetime.now(UTC).isoformat(timespec="seconds"), "mode": mode,
                 "canonical_of": cond.canonical_of,
                 "previous": {t.relation: t.canonical for t in originals.values()},
                 "merged": {e.id: [triple_row(originals[m.id]) | {"entities": _ends(originals[m.id])}
                                   for m in e.merged] for e in cond.edges if e.merged}})
    atomic_write_json(path, {"runs": runs})


def _ends(t) -> dict:
    return {"s": asdict(t.subject), "o": asdict(t.object)}


def undo_condensation(session) -> int:
    """Restore the KG as it was before the first condense; returns the number of triples restored."""
    from pyramid.kg.model import Entity, Triple, canonical_name

    path = session.ws.path("completion", JOURNAL)
    if not path.exists():
        raise CompletionError(f"nothing to undo: {path} does not exist (the KG was not condensed)")
    runs = json.loads(path.read_text(encoding="utf-8"))["runs"]
    with session.ws.writing("kg condense --undo"):
        store = session.kg.store(write=True)
        restored: list[Triple] = []
        for run in reversed(runs):
            for rows in run["merged"].values():
                for r in rows:
                    s, o = Entity(**r["entities"]["s"]), Entity(**r["entities"]["o"])
                    restored.append(Triple(r["id"], s, r["relation"], o, r["canonical"], json.loads(r["props"]),
                                           r["chunk_id"], r["doc_id"], r["confidence"]))
        store.upsert([], restored)
        previous: dict[str, str] = {}
        for run in runs:                      # the earliest run saw the canonical names before any condense
            for text, canonical in run.get("previous", {}).items():
                previous.setdefault(text, canonical)
        by_name: dict[str, set[str]] = defaultdict(set)
        for t in store.iter_triples():
            by_name[previous.get(t.relation) or canonical_name(t.relation)].add(t.relation)
        for canonical, texts in by_name.items():
            store.set_canonical(sorted(texts), canonical)
        session.kg.sync_index()
        path.replace(path.with_name(JOURNAL + ".undone"))
    return len(restored)
