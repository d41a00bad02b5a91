"""Instance (f_ins) extraction strategies, one module each, registered by name
(`ontology.extract_method`) the way a plug-in is.

    chunk.py     one structured call per chunk over the class-attribute pairs nearest it (the paper)
    grounded.py  sentences read by rule, linked by meaning and types; the model for close calls only
    read.py      the pages' schema-aware reading (pyramid.reading), no model; the KG reads it too
    auto.py      each document by its shape (pyramid.reading.shape): read for pages, grounded for the rest
    linker.py    names → existing IRIs (label index, then embeddings) or new ones
    base.py      the InstanceExtractor protocol, its job, the facts, the report, the chunk journal

`INSTANCE_EXTRACTORS.get(name).build()` makes one; an entry's option `reads_pages` says that the
build reads the corpus's pages once, for it and for the KG. A plug-in package registers more through
the entry-point group `polyrag.instance_extractors` (a `register(registry)` function).
"""

from __future__ import annotations

from pyramid.plugins import Registry

BY_SHAPE = "auto"   # the method that reads each document by its shape; the KG's auto follows it
INSTANCE_EXTRACTORS: Registry = Registry(
    "instance extraction method", setting="ontology.extract_method", group="polyrag.instance_extractors",
    builtins=tuple(f"pyramid.ontology.extractors.{m}" for m in ("grounded", "chunk", "read", "auto")))


def reads_pages(method: str) -> bool:
    """The method takes the pages' schema-aware reading (the build makes it once, for both layers)."""
    return bool(INSTANCE_EXTRACTORS.get(method).option("reads_pages", False))
