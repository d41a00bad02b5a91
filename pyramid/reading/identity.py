"""One thing, one name: a name that holds a code ("Organic Chemistry (CHEM 430)") names the thing whose page
holds that code ("CHEM 430: Organic Chemistry"), however the two are worded. A code is an identifier: where
exactly one page's entity carries it, and the classes agree, every mention of the code is that entity.
The name a code stands beside is a name of the thing too (`without_code`: "Organic Chemistry")."""

from __future__ import annotations

import re
from dataclasses import replace

from pyramid.normalise import CODE, codes_in, name_key
from pyramid.reading.page import PageReading
from pyramid.vocab import Vocab

# a code with its brackets or its separator, wherever it stands in a name ("(CHEM 430)", "CHEM 430:")
_CODE_PART = re.compile(rf"\(\s*{CODE.pattern}\s*\)|{CODE.pattern}\s*[:–—-]?")


def without_code(name: str) -> str | None:
    """The words a name holds beside its code ("CHEM 430: Organic Chemistry" → "Organic Chemistry"), when
    they are a name of their own (a capitalised word at least); None for a name with no code."""
    if not codes_in(name):
        return None
    rest = " ".join(_CODE_PART.sub(" ", name).split()).strip(" :–—-,;()")
    return rest if rest and rest != name and any(w[:1].isupper() for w in rest.split()) else None


def one_thing_per_name(vocab: Vocab, readings: list[PageReading]) -> list[PageReading]:
    """The readings with each mention of a code that one page's entity alone carries written as that
    entity's name (so both pages' facts meet on one thing), and each thing that has a page of its own typed
    as its page says (a person another page's link read as a course is the person her page says she is)."""
    return _typed_by_their_pages(_one_name_per_code(vocab, readings))


def _typed_by_their_pages(readings: list[PageReading]) -> list[PageReading]:
    page_class = {name_key(r.entity): r.cls for r in readings if r.cls}
    return [replace(r, mentions={n: page_class.get(name_key(n), c) for n, c in r.mentions.items()})
            for r in readings]


def _one_name_per_code(vocab: Vocab, readings: list[PageReading]) -> list[PageReading]:
    owners: dict[str, set[tuple[str, str | None]]] = {}
    for r in readings:
        for code in codes_in(r.entity):
            owners.setdefault(code, set()).add((r.entity, r.cls))
    sole = {code: next(iter(found)) for code, found in owners.items() if len(found) == 1}
    if not sole:
        return readings

    def canonical(name: str, cls: str | None) -> str:
        hits = {sole[c] for c in codes_in(name) if c in sole}
        if len(hits) != 1:
            return name
        entity, entity_cls = next(iter(hits))
        agree = not cls or not entity_cls or vocab.compatible(cls, entity_cls)
        return entity if agree and name_key(entity) != name_key(name) else name

    out = []
    for r in readings:
        facts = [replace(f, value=canonical(f.value, f.value_class)) if f.is_object else f for f in r.facts]
        mentions: dict[str, str] = {}
        for name, cls in r.mentions.items():
            mentions.setdefault(canonical(name, cls), cls)
        out.append(replace(r, facts=facts, mentions=mentions))
    return out
