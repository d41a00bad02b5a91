"""Development domains of our own, each with its own OWL schema, for `polyrag bench domain`.

A domain module (`hospital`, `films`, ...) has `generate(seed: int = 7) -> DomainData`: the schema,
the gold instances, pages about its entities in several layouts (fields and prose) and questions of
several kinds, open and with options, every gold answer taken from the generator's own records.
`polyrag bench make-domain NAME --out DIR` writes them as `schema.ttl`, `gold.ttl`, `pages.jsonl` and
`questions.jsonl`; the pages carry `about` (the gold IRI of the page's main entity) and `layout`,
which the benchmark strips before the build sees the pages.

No domain here borrows a name, label or layout from the data under ../shared: they exist to show how
the pyramid does on a schema and pages it was not developed on.
"""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DOMAINS = ("hospital", "films", "city", "univ", "alpine")


@dataclass
class DomainData:
    name: str
    schema_ttl: str                 # OWL in Turtle: classes (with a hierarchy), properties, labels, comments
    gold_ttl: str                   # every instance typed, labelled and with its facts
    pages: list[dict[str, Any]]     # {"id", "title", "text", "about": gold IRI, "layout": name}
    questions: list[dict[str, Any]] = field(default_factory=list)
    # open: {"id", "kind", "type": "open", "question", "answer": str | list[str]}
    # with options: {"id", "kind", "type": "MCQ" | "MAQ", "question", "options": [...], "answers": [indexes]}


def literal(value: Any, dtype: str = "xsd:string") -> str:
    """A Turtle literal, typed unless a plain string."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"' if dtype == "xsd:string" else f'"{text}"^^{dtype}'


def in_turn(groups: list[list[Any]], rng: random.Random) -> list[Any]:
    """The candidate questions of every group (one group per sort of a kind), each group shuffled, taken from
    the groups in turn, so that a kind mixes its sorts."""
    queues = [rng.sample(g, len(g)) for g in groups if g]
    rng.shuffle(queues)
    out: list[Any] = []
    while queues:
        out += [q.pop() for q in queues]
        queues = [q for q in queues if q]
    return out


def with_options(answer: str | list[str], pool: list[str], rng: random.Random) -> tuple[list[str], list[int]]:
    """Options for a question: the gold answers and wrong ones from `pool` (three beside one answer; beside
    several, enough for five, at least two), shuffled; and the gold's indexes."""
    gold = answer if isinstance(answer, list) else [answer]
    wrong = [p for p in dict.fromkeys(pool) if p not in gold]
    opts = gold + rng.sample(wrong, min(len(wrong), 3 if len(gold) == 1 else max(2, 5 - len(gold))))
    rng.shuffle(opts)
    return opts, sorted(opts.index(g) for g in gold)


def entity_ttl(prefix: str, key: str, cls: str, label: str, facts: dict[str, Any], ranges: dict[str, str] | None = None,
               extra: tuple[str, ...] = ()) -> str:
    """One gold instance in Turtle: typed, labelled (and `extra` statements), then its facts — a thing (anything
    with a `key`) by its IRI, a value as a literal of the property's datatype in `ranges`."""
    parts = [f"a {prefix}:{cls}", f"rdfs:label {literal(label)}", *extra]
    for prop, val in facts.items():
        vals = val if isinstance(val, list) else [val]
        objs = [f"{prefix}:{v.key}" if hasattr(v, "key") else literal(v, (ranges or {}).get(prop, "xsd:string"))
                for v in vals]
        parts.append(f"{prefix}:{prop} " + ", ".join(objs))
    return f"{prefix}:{key} " + " ;\n    ".join(parts) + " .\n"


def property_ttl(prefix: str, local: str, is_object: bool, domain: str, range_term: str, label: str, comment: str,
                 inverse: str | None = None) -> str:
    """One property of a domain's schema in Turtle (`range_term` a CURIE: the class's or the datatype's)."""
    kind = "owl:ObjectProperty" if is_object else "owl:DatatypeProperty"
    inv = f"    owl:inverseOf {prefix}:{inverse} ;\n" if inverse else ""
    return (f"{prefix}:{local} a {kind} ;\n{inv}    rdfs:domain {prefix}:{domain} ;\n    rdfs:range {range_term} ;\n"
            f"    rdfs:label {literal(label)} ;\n    rdfs:comment {literal(comment)} .\n")


def generate(name: str, seed: int = 7) -> DomainData:
    if name not in DOMAINS:
        raise ValueError(f"unknown domain '{name}' ({', '.join(DOMAINS)})")
    return importlib.import_module(f"benchmarks.domains.{name}").generate(seed)


def write(data: DomainData, out_dir: Path) -> dict[str, Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = {"schema": out_dir / "schema.ttl", "gold": out_dir / "gold.ttl",
             "pages": out_dir / "pages.jsonl", "questions": out_dir / "questions.jsonl"}
    files["schema"].write_text(data.schema_ttl, encoding="utf-8")
    files["gold"].write_text(data.gold_ttl, encoding="utf-8")
    files["pages"].write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in data.pages), encoding="utf-8")
    files["questions"].write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in data.questions),
                                  encoding="utf-8")
    return files
