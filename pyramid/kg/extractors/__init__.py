"""KG extraction strategies, one module each, registered by name (`kg.mode`) the way a plug-in is.

    cascade.py   f_par → f_ent → f_rel → f_dis (the PolyRAG paper), four calls per chunk
    single.py    one structured call per chunk
    rules.py     sentences read without a model (the dependency parse, or the surface rules)
    grounded.py  the rules, plus one enum-constrained call per sentence they cannot read
    read.py      the pages' schema-aware reading, the ontology's own (no model)
    by_shape.py  each document by its shape: read for pages about one entity, by sentence for the rest
    base.py      the TripleExtractor protocol, its job and result, the chunk-by-chunk base

`TRIPLE_EXTRACTORS.get(name).build(llm, kg_settings)` makes one; `choose(requested, llm, can_read=)`
settles `auto` once, where a build starts. A plug-in package registers more through the entry-point
group `polyrag.triple_extractors` (a `register(registry)` function), a script through
`TRIPLE_EXTRACTORS.register(Entry(...))`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid.plugins import Registry

if TYPE_CHECKING:
    from pyramid.llm import LLM

AUTO = "auto"
TRIPLE_EXTRACTORS: Registry = Registry(
    "KG extraction mode", setting="kg.mode", param="kg_mode", group="polyrag.triple_extractors",
    builtins=tuple(f"pyramid.kg.extractors.{m}" for m in ("cascade", "single", "grounded", "rules", "read", "by_shape")))


def check(requested: str) -> None:
    """Refuse an unknown mode before anything is written."""
    if requested != AUTO:
        TRIPLE_EXTRACTORS.get(requested, extra=(AUTO,))


def choose(requested: str, llm: LLM, *, can_read: bool = False, by_shape: bool = False) -> str:
    """The extraction mode for `requested` (refused when unknown): auto is by-shape when the instances
    are chosen by each document's shape (`by_shape`), read when a schema can be read against
    (`can_read`: no model, the ontology's reading), else grounded for the tiny default model (best F1
    in `bench extraction`, reports/extraction.md), else cascade."""
    from pyramid.summarise import is_tiny_default

    check(requested)
    if requested == AUTO:
        if can_read:
            return "by-shape" if by_shape else "read"
        return "grounded" if is_tiny_default(llm) else "cascade"
    return requested
