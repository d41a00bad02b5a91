"""f_kg: triples from one chunk, by the PolyRAG cascade or by one structured call.

    cascade:  f_par (statements) → f_ent (entities) → f_rel (triples) → f_dis (canonical relations)
    single:   one call returns typed triples (the multi-hop KG-RAG seed paper's way)
    rules:    no model: pyramid/grounding.py's deterministic f_par (sentences, pronouns → the
              document's main entity), then triples read off spaCy's dependency parse of each
              sentence (pyramid/kg/parse.py: subject–verb–object, passives, copulas, appositions,
              relative clauses, conjunctions); `reader="regex"` keeps grounding.py's surface rules
    grounded: `rules`, plus one call per sentence the rules cannot read (`llm_for="all"`: every
              sentence), whose subject and object are enums of the sentence's candidate spans and
              whose relation must be written in the sentence outside them (else the words between
              the two spans replace it); a relation equal to an entity is dropped

Every call is JSON-schema constrained (prompts in `pyramid/kg/prompts/`). The schemas bound list
lengths and string sizes so a small model cannot ramble. The model's output is then checked
without a model: a triple whose ends do not occur in the chunk is an invention of the model and is
dropped (`kg.min_grounding`); f_dis may only map relations it was given.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pyramid.chunker import Chunk
from pyramid.kg.model import canonical_name, normalise_name
from pyramid.llm import LLM
from pyramid.prompts import load_prompt
from pyramid.usage import Usage

Mode = Literal["cascade", "single", "grounded", "rules"]
# How the rules and grounded modes read a sentence (pyramid/kg/parse.py): regex = the English-surface
# rules of pyramid/grounding.py; parse = spaCy's dependency parse; both = their triples together.
Reader = Literal["regex", "parse", "both"]
READERS: tuple[Reader, ...] = ("regex", "parse", "both")
READER: Reader = "parse"   # measured better on both development corpora (`polyrag bench extraction`)
MODES: tuple[Mode, ...] = ("cascade", "single", "grounded", "rules")
ENTITY_TYPES = ["PERSON", "ORGANIZATION", "PLACE", "EVENT", "WORK", "DATE", "NUMBER", "CONCEPT", "OTHER"]
UNTYPED = {"", "OTHER"}  # a type that says nothing conflicts with no type
# Bounds measured against SmolLM2-135M: it fills every list to its maximum, and a list that does not
# fit MAX_TOKENS is cut mid-JSON (a schema failure and a retry), so the lists stay short.
MAX_STATEMENTS, MAX_ENTITIES, MAX_TRIPLES = 5, 8, 5
# Generated tokens per call: the bounded lists above fit; a rambling reply is cut sooner.
MAX_TOKENS = {"f_par": 220, "f_ent": 160, "f_rel": 220, "f_dis": 160, "f_single": 220, "f_sentence": 160}
MAX_SENTENCE_TRIPLES = 3

_TRIPLE = {"type": "array", "minItems": 3, "maxItems": 4,
           "items": {"type": "string", "minLength": 1, "maxLength": 50}}
# Triples are short arrays [subject, relation, object, optional "key: value"], not objects: with
# named fields SmolLM2-135M wrote field and type names into the values ("relation": "head", a
# relation "NUMBER"); with arrays it kept to the text (tried on the first multihop documents).


def _obj(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


SCHEMAS: dict[str, dict[str, Any]] = {
    "f_par": _obj({"statements": {"type": "array", "minItems": 1, "maxItems": MAX_STATEMENTS,
                                  "items": {"type": "string", "minLength": 3, "maxLength": 120}}}),
    "f_ent": _obj({"entities": {"type": "array", "minItems": 1, "maxItems": MAX_ENTITIES,
                                "items": _obj({"name": {"type": "string", "minLength": 1, "maxLength": 40},
                                               "type": {"enum": ENTITY_TYPES}})}}),
    "f_rel": _obj({"triples": {"type": "array", "minItems": 1, "maxItems": MAX_TRIPLES, "items": _TRIPLE}}),
    "f_dis": _obj({"relations": {"type": "array", "maxItems": MAX_TRIPLES,
                                 "items": _obj({"relation": {"type": "string", "maxLength": 50},
                                                "canonical": {"type": "string", "maxLength": 40}})}}),
    "f_single": _obj({"triples": {"type": "array", "minItems": 1, "maxItems": MAX_TRIPLES, "items": _TRIPLE}}),
}


@dataclass
class RawTriple:
    """A triple as extracted from one chunk, before entity resolution."""

    head: str
    relation: str
    tail: str
    head_type: str = ""
    tail_type: str = ""
    properties: dict[str, str] = field(default_factory=dict)
    canonical: str = ""
    confidence: float = 1.0

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RawTriple:
        return cls(**d)


@dataclass
class ChunkExtraction:
    chunk_id: str
    doc_id: str
    triples: list[RawTriple]
    usage: Usage
    dropped_ungrounded: int = 0
    duplicates_dropped: int = 0


_WORD = re.compile(r"\w+", re.UNICODE)


def grounding(name: str, text_words: set[str]) -> float:
    """Share of a name's words that occur in the chunk (1.0 = written there)."""
    words = _WORD.findall(normalise_name(name))
    return sum(w in text_words for w in words) / len(words) if words else 0.0


def _from_array(item: list[str], types: dict[str, str] | None = None) -> RawTriple | None:
    """[subject, relation, object, optional "key: value"] → RawTriple (None if an end is empty)."""
    head, relation, tail = (" ".join(x.split()) for x in item[:3])
    props: dict[str, str] = {}
    if len(item) > 3 and item[3].strip():
        key, sep, value = item[3].partition(":")
        key = "_".join(key.lower().split()) if sep and value.strip() else "detail"
        props[key] = " ".join((value if sep and value.strip() else item[3]).split())
    if not (head and relation and tail):
        return None
    if normalise_name(relation) in (normalise_name(head), normalise_name(tail)):
        return None  # the model repeated an entity as the relation
    types = types or {}
    return RawTriple(head, relation, tail, types.get(normalise_name(head), ""), types.get(normalise_name(tail), ""),
                     props)


def _type(t: str) -> str:
    return "" if t in UNTYPED else t


class Extractor:
    """Runs f_kg over chunks with one LLM; `min_grounding` in [0, 1] (see module docstring)."""

    def __init__(self, llm: LLM, mode: Mode = "cascade", min_grounding: float = 0.5,
                 llm_for: Literal["residue", "all"] = "residue", reader: Reader = READER) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown extraction mode {mode!r} (choose {', '.join(MODES)})")
        if reader not in READERS:
            raise ValueError(f"unknown sentence reader {reader!r} (choose {', '.join(READERS)})")
        self.llm, self.mode, self.min_grounding, self.llm_for = llm, mode, min_grounding, llm_for
        self.reader = reader

    @property
    def version(self) -> str:
        """Changes with the prompts, schemas, mode, grounding, rules and model: a new version re-extracts."""
        names = {"cascade": ["f_par", "f_ent", "f_rel", "f_dis"], "single": ["f_single"],
                 "grounded": ["f_sentence"], "rules": []}[self.mode]
        parts = [self.mode, str(self.min_grounding), self.llm.name, json.dumps([SCHEMAS, MAX_TOKENS], sort_keys=True),
                 *(load_prompt("pyramid.kg", n).version for n in names)]
        if self.mode in ("grounded", "rules"):
            from pyramid.grounding import RULES_VERSION
            parts += [RULES_VERSION, self.llm_for]
            if self.reader != "regex":
                from pyramid.kg.parse import PARSE_VERSION
                parts += [self.reader, PARSE_VERSION]
        return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:12]

    def _call(self, name: str, **values: Any) -> dict[str, Any]:
        messages = load_prompt("pyramid.kg", name).render(**values)
        return self.llm.complete(messages, SCHEMAS[name], max_tokens=MAX_TOKENS[name]).parsed

    def extract(self, chunk: Chunk, title: str = "") -> ChunkExtraction:
        """Triples of one chunk (`title`: its document's, naming the main entity for the grounded
        modes). Raises LLMError (e.g. a reply failing its schema after retries)."""
        with self.llm.meter.scope() as usage:
            if self.mode == "cascade":
                raw = self._cascade(chunk.text)
            elif self.mode == "single":
                raw = self._single(chunk.text)
            else:
                raw = self._grounded(chunk.text, title)
        words = set(_WORD.findall(normalise_name(chunk.text)))
        kept, dropped = [], 0
        for tr in raw:
            tr.confidence = round((grounding(tr.head, words) + grounding(tr.tail, words)) / 2, 3)
            if tr.confidence < self.min_grounding:
                dropped += 1
            else:
                kept.append(tr)
        unique = _dedupe(kept)
        return ChunkExtraction(chunk.id, chunk.doc_id, unique, usage.model_copy(), dropped, len(kept) - len(unique))

    # -- the cascade
    def _cascade(self, text: str) -> list[RawTriple]:
        statements = [" ".join(s.split()) for s in self._call("f_par", text=text)["statements"] if s.strip()]
        if not statements:
            return []
        listed = "\n".join(f"- {s}" for s in statements)
        entities = self._call("f_ent", statements=listed)["entities"]
        types = {normalise_name(e["name"]): _type(e["type"]) for e in entities}
        names = "; ".join(dict.fromkeys(e["name"].strip() for e in entities if e["name"].strip()))
        if not names:
            return []
        triples = [_from_array(item, types) for item in self._call("f_rel", entities=names, statements=listed)["triples"]]
        return self._disambiguate([t for t in triples if t is not None])

    def _disambiguate(self, triples: list[RawTriple]) -> list[RawTriple]:
        relations = list(dict.fromkeys(t.relation for t in triples))
        mapping: dict[str, str] = {}
        # With fewer than two distinct relations there is nothing to merge: the call is skipped.
        if len(relations) >= 2:
            numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(relations, 1))
            given = {r.lower(): r for r in relations}
            for m in self._call("f_dis", relations=numbered)["relations"]:
                rel = given.get(" ".join(m["relation"].split()).lower())
                canon = canonical_name(m["canonical"]) if m["canonical"].strip() else ""
                if rel is not None and canon:  # a mapping for a relation it was not given is ignored
                    mapping[rel] = canon
        for t in triples:
            t.canonical = mapping.get(t.relation) or canonical_name(t.relation)
        return triples

    # -- one call
    def _single(self, text: str) -> list[RawTriple]:
        """Untyped triples: asking for types in the same call made the tiny model worse (see SCHEMAS)."""
        out = [_from_array(item) for item in self._call("f_single", text=text)["triples"]]
        for tr in (t for t in out if t is not None):
            tr.canonical = canonical_name(tr.relation)
        return [t for t in out if t is not None]


    # -- grounded: deterministic reading, the model on what the rules cannot read
    def _grounded(self, text: str, title: str) -> list[RawTriple]:
        from pyramid.grounding import candidates
        from pyramid.kg.parse import read_with

        out: list[RawTriple] = []
        for sent in read_with(self.reader, text, title):
            if self.mode == "grounded" and self.llm_for == "all":
                rules: list[RawTriple] = []
            else:
                rules = [RawTriple(t.subject, t.relation, t.object, canonical=canonical_name(t.relation))
                         for t in sent.triples]
            out += rules
            if self.mode == "rules" or (rules and self.llm_for == "residue"):
                continue
            cands = candidates(sent)
            if len(cands) < 2:
                continue  # nothing to relate: no call
            out += self._sentence(sent.text, cands)
        return out

    def _sentence(self, sentence: str, cands: list[str]) -> list[RawTriple]:
        schema = _obj({"triples": {"type": "array", "maxItems": MAX_SENTENCE_TRIPLES, "items": _obj({
            "subject": {"enum": cands}, "relation": {"type": "string", "minLength": 1, "maxLength": 50},
            "object": {"enum": cands}})}})
        listed = "\n".join(f"- {c}" for c in cands)
        messages = load_prompt("pyramid.kg", "f_sentence").render(sentence=sentence, candidates=listed)
        reply = self.llm.complete(messages, schema, max_tokens=MAX_TOKENS["f_sentence"]).parsed
        out = []
        for t in reply["triples"]:
            rel = grounded_relation(sentence, t["subject"], " ".join(t["relation"].split()), t["object"], cands)
            if rel:
                out.append(RawTriple(t["subject"], rel, t["object"], canonical=canonical_name(rel)))
        return out


def grounded_relation(sentence: str, subject: str, relation: str, obj: str, entities: list[str]) -> str:
    """The relation if it is written in the sentence outside the subject and object and is no entity;
    else the words between subject and object when they are 1–8 words of the sentence; else ""."""
    folded = lambda x: [w for w in _WORD.findall(normalise_name(x))]
    if normalise_name(subject) == normalise_name(obj):
        return ""
    ent = {normalise_name(e) for e in entities}
    sent_words, ends = set(folded(sentence)), set(folded(subject)) | set(folded(obj))
    words = folded(relation)
    # a relation that swallows a name ('belongs to the Faculty of Engineering at') is no relation;
    # lowercase candidate phrases may share a word with one ('twinned' / 'twinned with') and do not count
    names = [normalise_name(e) for e in entities if not e.islower() and len(normalise_name(e)) > 2]
    inside = any(re.search(rf"\b{re.escape(e)}\b", normalise_name(relation)) for e in names)
    if words and any(len(w) > 1 and w.isalpha() for w in words) and normalise_name(relation) not in ent and \
            set(words) <= sent_words and not set(words) <= ends and not inside:
        return relation
    low = sentence.lower()
    i, j = low.find(subject.lower()), low.find(obj.lower())
    if i >= 0 and j > i + len(subject):
        gap = sentence[i + len(subject):j].strip(" ,;:")
        gap = re.sub(r"\b(the|a|an)$", "", gap, flags=re.IGNORECASE).strip()
        n = len(gap.split())
        if 1 <= n <= 8 and normalise_name(gap) not in ent and "," not in gap and \
                not any(re.search(rf"\b{re.escape(e)}\b", normalise_name(gap)) for e in names):
            return gap
    return ""


def _dedupe(triples: list[RawTriple]) -> list[RawTriple]:
    """One triple per (head, canonical relation, tail), the first kept (f_dis: drop duplicates)."""
    seen: dict[tuple[str, str, str], RawTriple] = {}
    for t in triples:
        key = (normalise_name(t.head), t.canonical or canonical_name(t.relation), normalise_name(t.tail))
        if key[0] == key[2]:
            continue  # a self-loop from a small model repeating the head
        seen.setdefault(key, t)
    return list(seen.values())


def extraction_to_json(ex: ChunkExtraction) -> dict[str, Any]:
    return {"chunk_id": ex.chunk_id, "doc_id": ex.doc_id, "triples": [asdict(t) for t in ex.triples],
            "usage": ex.usage.to_dict(), "dropped_ungrounded": ex.dropped_ungrounded,
            "duplicates_dropped": ex.duplicates_dropped}
