"""The label index: mentions in a question (or an MCQ option, or an extracted name) → instance IRIs.

Real labels are messy ("WONG Wai On 黃偉安 (Dr)", "Dr Chi Hong LEUNG" beside "Leung Chi-hong",
"FSN5026 (ABCT5026)"), so every label is indexed under several keys, tried from the most to the
least precise; the first tier that finds anything wins (exact and folded hits are pooled: they
differ only in case, accents, titles or a CJK rendering), so a precise hit is never diluted by a
looser one:

    exact      the label as written (whitespace collapsed)
    folded     `pyramid.normalise.name_words` (accents, case, punctuation and titles — Dr, Prof, Ir, Mr/Ms,
               Sr… — removed) without a CJK rendering beside a romanised name; a name written in CJK
               only keeps it, and a mention whose CJK rendering differs from a label's does not match
               it (陳大文 Chan Tai Man is not 陳泰民 Chan Tai Man)
    bag        the folded words in sorted order ("Chen Alice" = "Alice Chen")
    code       code-like tokens ("AAE6203", "APSS 5051" → "APSS5051"), and upper-case IRI local names
               ("COMP") when the mention is upper-case too (so the word "me" never links to ME)
    fuzzy      rapidfuzz ratio of the bags ≥ `fuzzy_cutoff` (small typos), best few only

Which literals are labels: rdfs:label, skos labels, and any literal property whose local name ends in
name/title/code/label (has_name, has_subject_title, has_subject_code). A course with both a code and
a title is also indexed as "CODE Title", the way MCQ options write it.

The index is built from two SELECTs (labels, types) and is cheap to rebuild (~0.1 s for the 3.4k
PolyU instances); `save`/`load` persist it as JSON keyed by a fingerprint of the store so a stale
index is rebuilt, never used.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

from rapidfuzz import fuzz, process

# STOPWORDS, codes_in and fold (as fold_word) are re-exported: querying/, ontology/extract and
# benchmarks import them from here.
from pyramid.normalise import (
    CODE,
    POST_NOMINALS,
    STOPWORDS,
    TITLES,
    cjk_words,
    codes_in,
    is_cjk,
    name_words,
    strip_title_words,
    without_cjk_rendering,
)
from pyramid.normalise import fold as fold_word
from pyramid.reading.english import CONJUNCTIONS

RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
SKOS = "http://www.w3.org/2004/02/skos/core#"
LABEL_LIKE = re.compile(r"(^|[_\-])(label|name|title|code)$|^(label|name|title|code)", re.IGNORECASE)
# a word of a question, with an apostrophe inside ("King's", "O'Brien") so that it folds as the label does
_WORD = re.compile(r"\w+(?:['’ʼ]\w+)*", re.UNICODE)
_SPACE = re.compile(r"\s+")

PART_NAME_PREPOSITIONS = frozenset({"from", "in", "at", "of", "on"})  # "Maria from Finance", "Tom in Sales"
PART_SCORE = 0.9          # a link by a part of a name: below any whole-name tier
MAX_PART_LINKS = 5        # more instances than this share the part: it names none of them

Tier = Literal["exact", "folded", "bag", "code", "acronym", "fuzzy"]
TIERS: tuple[Tier, ...] = ("exact", "folded", "bag", "code", "acronym", "fuzzy")
Select = Callable[[str], Iterable[dict[str, str]]]


# ------------------------------------------------------------------ keys (pure functions)
def fold_words(text: str) -> list[str]:
    """The words of a label as the index compares them: `name_words` (folded, titles dropped unless
    only titles), without a CJK rendering beside a romanised name (questions write the latter)."""
    return without_cjk_rendering(name_words(text))


def folded_key(text: str) -> str:
    return " ".join(fold_words(text))


def bag_of(words: Sequence[str]) -> str:
    """Folded words in sorted order, post-nominals left out wherever they stand ("Yim, JP Eric" =
    "Eric Yim, JP"): in a bag their place no longer tells them from a name."""
    kept = [w for w in words if w not in POST_NOMINALS]
    return " ".join(sorted(kept if len(kept) >= 2 else words))


def bag_key(text: str) -> str:
    return bag_of(fold_words(text))


def exact_key(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _near_cjk(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two CJK renderings one small slip apart (a character dropped or changed in a typed name):
    accepted by the fuzzy tier only, where the romanised words already matched closely."""
    return fuzz.ratio("".join(sorted(a)), "".join(sorted(b))) >= 60


# ------------------------------------------------------------------ results
@dataclass(frozen=True)
class LabelLink:
    """One instance a text names, by which of its labels and how closely."""

    iri: str
    label: str                   # the indexed surface form that matched
    classes: tuple[str, ...]     # rdf:type IRIs (asserted or inferred, else from property domains)
    score: float                 # 1.0 for exact tiers; the fuzzy ratio / 100 otherwise
    tier: Tier


@dataclass(frozen=True)
class Mention:
    text: str                    # the span of the question, as written
    start: int                   # character offsets in the question
    end: int
    links: tuple[LabelLink, ...]

    @property
    def iris(self) -> list[str]:
        return list(dict.fromkeys(link.iri for link in self.links))

    @property
    def classes(self) -> set[str]:
        return {c for link in self.links for c in link.classes}


@dataclass
class LabelEntry:
    """One surface form the index knows an instance by."""

    iri: str
    surface: str
    classes: tuple[str, ...]
    acronym: bool = False        # an upper-case IRI local name: matched only as written


@dataclass
class LabelIndex:
    """Precomputed keys → entries. Build with `from_rows` / `from_select`; query with `link`/`mentions`."""

    entries: list[LabelEntry] = field(default_factory=list)
    fingerprint: str = ""
    fuzzy_cutoff: float = 88.0
    max_ngram: int = 14

    def __post_init__(self) -> None:
        self._keys: dict[Tier, dict[str, list[int]]] = {t: defaultdict(list) for t in TIERS if t != "fuzzy"}
        self._classes: dict[str, tuple[str, ...]] = {}
        self._names: dict[str, str] | None = None
        self._own: dict[tuple[str, frozenset[str]], bool] = {}
        self._cjk: list[frozenset[str]] = []   # per entry: the CJK rendering of its name, if any
        # a name of two words or more by its last word and by its first: "Dr Nowak", "Maria from Finance"
        self._parts: dict[str, dict[str, list[int]]] = {"first": defaultdict(list), "last": defaultdict(list)}
        for i, e in enumerate(self.entries):
            self._add(i, e)
        self._bags = list(self._keys["bag"])
        self._foldeds = list(self._keys["folded"])

    # -- building
    def _add(self, i: int, e: LabelEntry) -> None:
        self._classes.setdefault(e.iri, e.classes)
        full = name_words(e.surface)
        self._cjk.append(cjk_words(full))
        if e.acronym:
            self._keys["acronym"][e.surface].append(i)
            return
        words = without_cjk_rendering(full)
        self._keys["exact"][exact_key(e.surface)].append(i)
        self._keys["folded"][" ".join(words)].append(i)
        if self._cjk[i] and len(words) < len(full):  # "黃偉安" alone names "WONG Wai On 黃偉安" too
            self._keys["folded"][" ".join(w for w in full if w in self._cjk[i])].append(i)
        self._keys["bag"][bag_of(words)].append(i)
        if len(words) >= 2:
            self._parts["first"][words[0]].append(i)
            self._parts["last"][words[-1]].append(i)
        for code in codes_in(e.surface):
            self._keys["code"][code].append(i)

    @classmethod
    def from_rows(cls, labels: Iterable[tuple[str, str]], types: Iterable[tuple[str, str]], *,
                  fingerprint: str = "", **kwargs) -> LabelIndex:
        """`labels`: (iri, label-like literal) pairs; `types`: (iri, class IRI) pairs."""
        classes: dict[str, set[str]] = defaultdict(set)
        for iri, cls_ in types:
            classes[iri].add(cls_)
        by_iri: dict[str, list[str]] = defaultdict(list)
        for iri, text in labels:
            text = exact_key(text)
            if text and text not in by_iri[iri]:
                by_iri[iri].append(text)
        entries: list[LabelEntry] = []
        for iri, texts in by_iri.items():
            ctuple = tuple(sorted(classes.get(iri, ())))
            if ctuple and all(c.startswith(_META) for c in ctuple):
                continue  # a class, property or the ontology itself: a schema term, not an instance
            surfaces = list(texts)
            codes = [t for t in texts if codes_in(t) and len(t) <= 40]
            titles = [t for t in texts if not codes_in(t)]
            # "CODE Title", as options and course lists write a subject
            surfaces += [f"{c} {t}" for c in codes[:2] for t in titles[:2]]
            entries += [LabelEntry(iri, s, ctuple) for s in dict.fromkeys(surfaces)]
            local = re.split(r"[#/]", iri.rstrip("/#"))[-1]
            if local.isupper() and local.isalpha() and 2 <= len(local) <= 8:
                entries.append(LabelEntry(iri, local, ctuple, acronym=True))  # base:COMP, base:SD
        return cls(entries, fingerprint, **kwargs)

    @classmethod
    def from_select(cls, select: Select, *, fingerprint: str = "", **kwargs) -> LabelIndex:
        """Read labels and types through any SPARQL SELECT function (rows of plain strings)."""
        preds = [r["p"] for r in select(PREDICATES_QUERY)]
        label_preds = [p for p in preds if p == RDFS_LABEL or p.startswith(SKOS)
                       or LABEL_LIKE.search(re.split(r"[#/]", p)[-1])]
        labels: list[tuple[str, str]] = []
        if label_preds:
            values = " ".join(f"<{p}>" for p in label_preds)
            labels = [(r["s"], r["o"]) for r in select(LABELS_QUERY % values)]
        types = [(r["s"], r["c"]) for r in select(TYPES_QUERY)]
        return cls.from_rows(labels, types, fingerprint=fingerprint, **kwargs)

    # -- persistence
    def save(self, path: Path) -> None:
        """The entries and their keys: a new process reads the keys instead of folding every label again
        (the folding took a second of every cold `polyrag ask` on PolyU)."""
        from pyramid.workspace import atomic_write_json

        atomic_write_json(path, {"fingerprint": self.fingerprint, "format": FORMAT,
                                 "entries": [asdict(e) for e in self.entries],
                                 "keys": {t: dict(k) for t, k in self._keys.items()},
                                 "parts": {p: dict(k) for p, k in self._parts.items()},
                                 "cjk": [sorted(c) for c in self._cjk]})

    @classmethod
    def load(cls, path: Path, fingerprint: str, **kwargs) -> LabelIndex | None:
        """The saved index if it exists and matches `fingerprint`, else None (rebuild it)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("fingerprint") != fingerprint or data.get("format") != FORMAT:
            return None
        entries = [LabelEntry(e["iri"], e["surface"], tuple(e["classes"]), bool(e.get("acronym")))
                   for e in data.get("entries", [])]
        index = cls([], fingerprint, **kwargs)
        index.entries = entries
        for e in entries:
            index._classes.setdefault(e.iri, e.classes)
        for tier, keys in data["keys"].items():
            index._keys[tier] = defaultdict(list, keys)  # type: ignore[index]
        for part, keys in data["parts"].items():  # "Dr Nowak", "Maria from Finance" in a new process too
            index._parts[part] = defaultdict(list, keys)
        index._cjk = [frozenset(c) for c in data["cjk"]]
        index._bags, index._foldeds = list(index._keys["bag"]), list(index._keys["folded"])
        return index

    # -- queries
    def __len__(self) -> int:
        return len(self._classes)

    def name_of(self, iri: str) -> str | None:
        """A name the instance is indexed under (its first label-like literal), or None."""
        if self._names is None:
            self._names = {}
            for e in self.entries:
                if not e.acronym:
                    self._names.setdefault(e.iri, e.surface)
        return self._names.get(iri)

    def classes_of(self, iri: str) -> tuple[str, ...]:
        return self._classes.get(iri, ())

    def has_own(self, cls: str, below: frozenset[str]) -> bool:
        """Some instance is filed under `cls` and under none of `below` (its subclasses): a class that
        only its subclasses fill (every professor is a full, an associate or an assistant one) has none."""
        key = (cls, below)
        if (known := self._own.get(key)) is None:
            known = self._own[key] = any(cls in cs and not below.intersection(cs) for cs in self._classes.values())
        return known

    def _links(self, ids: Sequence[int], tier: Tier, score: float = 1.0, cjk: frozenset[str] = frozenset(),
               strict: bool = False) -> list[LabelLink]:
        """Links of entries `ids` whose CJK rendering agrees with `cjk`, the mention's: equal, or
        (unless `strict`) either of them has none."""
        out: dict[str, LabelLink] = {}
        for i in ids:
            if cjk and self._cjk[i] != cjk and (strict or self._cjk[i]) and \
                    not (tier == "fuzzy" and not strict and _near_cjk(cjk, self._cjk[i])):
                continue
            e = self.entries[i]
            out.setdefault(e.iri, LabelLink(e.iri, e.surface, e.classes, score, tier))
        return list(out.values())

    def link(self, text: str, *, fuzzy: bool = True, classes: Iterable[str] | None = None,
             limit: int = 5) -> list[LabelLink]:
        """IRIs `text` names, from the most precise tier that finds any (see module docstring).

        `classes` keeps only instances of those classes (e.g. an option list of staff members).
        """
        wanted = set(classes or ())

        def keep(links: list[LabelLink]) -> list[LabelLink]:
            return [lk for lk in links if not wanted or wanted & set(lk.classes)]

        # Exact and folded keys name the same person (only case, accents, titles or a CJK rendering
        # differ), so their hits are pooled, exact ones first; a word-order match is a tier below.
        same = self._links(self._keys["exact"].get(exact_key(text), ()), "exact")
        full = name_words(text)
        cjk, words = cjk_words(full), without_cjk_rendering(full)
        folded = " ".join(words)
        if folded:
            same += [lk for lk in self._links(self._keys["folded"].get(folded, ()), "folded", cjk=cjk)
                     if lk.iri not in {x.iri for x in same}]
        hits = keep(same)
        if hits:
            return hits
        bag = bag_of(words)
        hits = keep(self._links(self._keys["bag"].get(bag, ()), "bag", cjk=cjk)) if bag else []
        if hits:
            return hits
        codes = codes_in(text)
        hits = keep(self._links([i for c in codes for i in self._keys["code"].get(c, ())], "code"))
        if hits:
            return hits
        hits = keep(self._links(self._keys["acronym"].get(text.strip(), ()), "acronym"))
        if hits:
            return hits
        return self._fuzzy(text, keep, limit, cjk) if fuzzy else []

    def _fuzzy(self, text: str, keep: Callable[[list[LabelLink]], list[LabelLink]], limit: int,
               cjk: frozenset[str] = frozenset(), strict: bool = False) -> list[LabelLink]:
        """Close keys by rapidfuzz ratio, compared both in written order (a typo in a first letter
        reorders a bag) and as bags (a typo and another word order at once)."""
        folded, bag = folded_key(text), bag_key(text)
        if len(folded) < 5:
            return []  # a typo in a 4-letter word is another word
        best: dict[str, LabelLink] = {}
        for tier, query, choices in (("folded", folded, self._foldeds), ("bag", bag, self._bags)):
            for key, score, _ in process.extract(query, choices, scorer=fuzz.ratio, limit=limit * 3,
                                                 score_cutoff=self.fuzzy_cutoff):
                links = self._links(self._keys[tier][key], "fuzzy", round(score / 100, 4), cjk,  # type: ignore[index]
                                    strict)
                for lk in keep(links):
                    if lk.iri not in best or lk.score > best[lk.iri].score:
                        best[lk.iri] = lk
        return sorted(best.values(), key=lambda lk: -lk.score)[:limit]

    def _part_links(self, tokens: Sequence[tuple[int, int, str]], a: int, span: str, titled: bool) -> list[LabelLink]:
        """A lone word that is part of a longer name, as people write names: after a title, the last
        word ("Dr Nowak"); a capitalised word inside the question before a preposition, the first
        ("Maria from Finance"). Every instance so named (a part is not a whole name: tier fuzzy)."""
        after = tokens[a + 1][2] if a + 1 < len(tokens) else ""
        if titled:
            part = "last"
        elif a > 0 and span[:1].isupper() and after in PART_NAME_PREPOSITIONS:
            part = "first"
        else:
            return []
        ids = self._parts[part].get(fold_word(span), [])
        return self._links(ids, "fuzzy", PART_SCORE) if 0 < len({self.entries[i].iri for i in ids}) <= MAX_PART_LINKS \
            else []

    def mentions(self, question: str, *, fuzzy: bool = True) -> list[Mention]:
        """Non-overlapping spans of `question` that name indexed instances, longest spans first.

        Quoted text is tried whole first. One-word spans count only when they are codes
        ("AAE6203"), upper-case acronyms ("COMP") or quoted: a lone common word is not a name.
        """
        tokens = [(m.start(), m.end(), fold_word(m.group())) for m in _WORD.finditer(question)]
        tokens = [t for t in tokens if t[2]]
        used = [False] * len(tokens)
        found: list[Mention] = []

        def claim(a: int, b: int, links: list[LabelLink]) -> None:
            start, end = tokens[a][0], tokens[b - 1][1]
            end = without_possessive(question, start, end)
            found.append(Mention(question[start:end], start, end, tuple(links)))
            for k in range(a, b):
                used[k] = True

        quoted = [(m.start(1), m.end(1)) for m in re.finditer(r"[\"“'‘]([^\"”'’]{2,200})[\"”'’]", question)]
        for qs, qe in quoted:
            idx = [k for k, t in enumerate(tokens) if qs <= t[0] and t[1] <= qe]
            links = self.link(question[qs:qe], fuzzy=fuzzy)
            if idx and links:
                claim(idx[0], idx[-1] + 1, links)
        codes = [(m.start(), m.end()) for m in CODE.finditer(question)]
        for cs, ce in codes:
            idx = [k for k, t in enumerate(tokens) if cs <= t[0] and t[1] <= ce and not used[k]]
            links = self.link(question[cs:ce], fuzzy=False)
            if idx and links and len(idx) == len([t for t in tokens if cs <= t[0] and t[1] <= ce]):
                claim(idx[0], idx[-1] + 1, links)

        n_max = min(self.max_ngram, len(tokens))
        for n in range(n_max, 0, -1):
            for a in range(len(tokens) - n + 1):
                b = a + n
                if any(used[a:b]):
                    continue
                words = [t[2] for t in tokens[a:b]]
                if words[0] in STOPWORDS or words[-1] in STOPWORDS:
                    continue
                span = question[tokens[a][0]:tokens[b - 1][1]]
                if n == 1:
                    if words[0] in TITLES:
                        continue
                    # a lone word is a name when it is a code, an acronym, follows a title ("Prof. Yim") or
                    # is written in CJK letters (a name in its own script: "杨冬博士")
                    titled = a > 0 and tokens[a - 1][2] in TITLES and span[:1].isupper()
                    script = all(is_cjk(ch) for ch in span)
                    links = self.link(span, fuzzy=False) if (codes_in(span) or span.isupper() or titled or script) \
                        else []
                    links = [lk for lk in links if lk.tier in ("code", "acronym", "exact") or
                             (titled and lk.tier == "folded")] or self._part_links(tokens, a, span, titled)
                else:
                    full = " ".join(words).split()
                    flat = strip_title_words(full)
                    if flat[:1] != full[:1] or flat[-1:] != full[-1:]:
                        continue  # the span inside the titles is the name ("Dr Shuran ZHANG" → "Shuran ZHANG")
                    # a span with a CJK rendering names only labels with that same rendering
                    cjk, roman = cjk_words(flat), without_cjk_rendering(flat)
                    key = " ".join(roman)
                    ids = self._keys["folded"].get(key) or self._keys["bag"].get(bag_of(roman))
                    links = self._links(ids or (), "folded", cjk=cjk, strict=True)
                    if not links and fuzzy and n >= 2 and span[:1].isupper() and len(key) >= 8:
                        # a conjunction the label lacks joins two names ("Business or the Faculty of
                        # Science"); it is no typo inside one
                        links = [lk for lk in self._fuzzy(span, list, 3, cjk, strict=True) if _ends_on_label(roman, lk)
                                 and not (CONJUNCTIONS & set(roman)) - set(fold_words(lk.label))]
                if links:
                    claim(a, b, links)
        return sorted(found, key=lambda m: m.start)


def without_possessive(text: str, start: int, end: int) -> int:
    """The end of a span without its possessive: the "'s" is the question's grammar, not the name's
    ("X's department")."""
    return end - 2 if text[end - 2:end] in ("'s", "’s") and end - 2 > start else end


def _ends_on_label(words: Sequence[str], link: LabelLink) -> bool:
    """A fuzzy span begins and ends on words of the label it found: a typo inside a name is forgiven,
    a word beside it is not ("Zhuo June CHENG's job" is "Zhuo June CHENG" and the word "job")."""
    label = fold_words(link.label)
    return bool(label) and all(max(fuzz.ratio(w, lw) for lw in label) >= EDGE_WORD for w in (words[0], words[-1]))


EDGE_WORD = 75  # rapidfuzz ratio: "zhangg" / "zhang" 91, "job" / "cheng" 25


FORMAT = 5  # of the saved index: a file written by an older rule is rebuilt (5: with the name parts)
# Types of schema terms (owl:Class, rdf:Property, owl:Ontology …): IRIs typed only so are not instances
_META = ("http://www.w3.org/2002/07/owl#", "http://www.w3.org/2000/01/rdf-schema#",
         "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
PREDICATES_QUERY = "SELECT DISTINCT ?p WHERE { ?s ?p ?o FILTER(isLiteral(?o)) }"
LABELS_QUERY = "SELECT ?s ?o WHERE { VALUES ?p { %s } ?s ?p ?o FILTER(isLiteral(?o)) }"
# Types as stored (inferred ones included after reasoning), else from the domains of the properties an
# untyped subject uses: PolyU's course records sit at IRIs that carry no rdf:type of their own.
TYPES_QUERY = """SELECT DISTINCT ?s ?c WHERE {
  { ?s a ?c FILTER(isIRI(?c)) }
  UNION
  { ?s ?p ?o . ?p <http://www.w3.org/2000/01/rdf-schema#domain> ?c FILTER NOT EXISTS { ?s a ?any } }
}"""
