"""`Vocab`: the schema terms question answering and extraction work with, as short unique names.

A plan, an extraction reply or a raw query names classes and properties by a short name (the local
name, "works_for", or a CURIE "ub:worksFor" when two namespaces share a local name); JSON schemas
list these names as enums, so a model can only pick a term that exists. `Vocab` maps names ↔ IRIs,
keeps each term's words (label, else the local name split at _ and camelCase) for embedding, and
answers "which classes are compatible" (one a subclass of the other, either way: PolyU declares
works_for's range as FACULTY and DEPARTMENT a subclass of FACULTY, and a department is what a staff
member works for).

It is read with two SELECTs through any SPARQL function, so it works over the ontology layer's store,
a plain Oxigraph store or a remote endpoint alike.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from rapidfuzz import fuzz, process

Select = Callable[[str], Iterable[dict[str, str]]]
Kind = Literal["class", "object", "datatype"]
OWL = "http://www.w3.org/2002/07/owl#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_BUILTIN = (OWL, RDFS, "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://www.w3.org/2001/XMLSchema#")


def local_name(iri: str) -> str:
    return re.split(r"[#/]", iri.rstrip("/#"))[-1] or iri


def words_of(iri: str, label: str = "") -> str:
    """'has_research_interest' → 'has research interest'; 'STAFF' → 'staff'; 'worksFor' → 'works for'."""
    text = label.strip() or local_name(iri)
    return " ".join(_CAMEL.sub(" ", text.replace("_", " ").replace("-", " ")).split()).lower()


@dataclass(frozen=True)
class Term:
    iri: str
    name: str                      # unique short name used in plans and JSON schemas
    kind: Kind
    label: str = ""
    comment: str = ""
    domains: tuple[str, ...] = ()  # class IRIs (properties)
    ranges: tuple[str, ...] = ()   # class or datatype IRIs (properties)
    alt_labels: tuple[str, ...] = ()  # other labels (skos:altLabel, further rdfs:labels)

    @property
    def words(self) -> str:
        return words_of(self.iri, self.label)

    @property
    def names(self) -> tuple[str, ...]:
        """Every wording that names the term: its label's words, its local name's, its other labels'
        ('staff member', 'staff' for :STAFF labelled "staff member" with altLabel "staff")."""
        return tuple(dict.fromkeys([self.words, words_of(self.iri),
                                    *(words_of(self.iri, a) for a in self.alt_labels)]))

    @property
    def alternatives(self) -> tuple[str, ...]:
        """Each alternative of the term's names, where a name offers two ("ward or unit": 'ward', 'unit')."""
        return tuple(dict.fromkeys(a.strip() for n in self.names for a in re.split(r"\bor\b|/|,", n) if a.strip()))

    @property
    def text(self) -> str:
        """What is embedded for this term: its words and comment."""
        return f"{self.words}. {self.comment}".strip(". ") if self.comment else self.words


@dataclass
class Vocab:
    terms: dict[str, Term]                              # name → term
    parents: dict[str, set[str]] = field(default_factory=dict)  # class IRI → direct superclass IRIs
    inverses: dict[str, set[str]] = field(default_factory=dict)  # property IRI → its declared inverses
    # property IRI → the classes a definition makes of what has it ("Student ≡ Person ⊓ ∃enrolledIn.Module")
    defines: dict[str, set[str]] = field(default_factory=dict)
    by_iri: dict[str, Term] = field(init=False)
    # ancestors are asked for millions of times while paths are enumerated; `parents` is fixed once built
    _ancestors: dict[str, frozenset[str]] = field(init=False, default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.by_iri = {t.iri: t for t in self.terms.values()}

    # -- reading
    @classmethod
    def from_select(cls, select: Select) -> Vocab:
        raw: dict[str, dict] = {}
        for r in select(TERMS_QUERY):
            iri, kind = r["t"], r["k"]
            if iri.startswith(_BUILTIN):
                continue
            k: Kind = "class" if kind.endswith("Class") else "object" if kind.endswith("ObjectProperty") else "datatype"
            # a term typed twice (owl:Class and rdfs:Class) keeps its first kind
            entry = raw.setdefault(iri, {"kind": k, "label": "", "comment": "", "domains": set(), "ranges": set()})
            entry["label"] = entry["label"] or r.get("label", "")
            entry["comment"] = entry["comment"] or r.get("comment", "")
        parents: dict[str, set[str]] = defaultdict(set)
        for r in select(LINKS_QUERY):
            s, p, o = r["s"], r["p"], r["o"]
            if s not in raw:
                continue
            if p == RDFS + "subClassOf" and o != OWL + "Thing" and o != s:
                parents[s].add(o)
            elif p == RDFS + "domain":
                raw[s]["domains"].add(o)
            elif p == RDFS + "range":
                raw[s]["ranges"].add(o)
        return cls.from_terms(
            [(iri, e["kind"], e["label"], e["comment"], tuple(sorted(e["domains"])), tuple(sorted(e["ranges"])))
             for iri, e in raw.items()], parents)

    @classmethod
    def from_schema(cls, schema) -> Vocab:
        """From a `pyramid.ontology.schema.Schema` (effective domains/ranges, inherited ones included);
        annotation properties are left out: a question is never answered through them."""
        rows: list[tuple] = []
        for c in schema.classes.values():
            rows.append((c.iri, "class", c.label, c.comment, (), (), tuple(schema.labels(c.iri))))
        for p in schema.properties.values():
            if p.kind in ("object", "datatype"):
                rows.append((p.iri, p.kind, p.label, p.comment, tuple(schema.domains_of(p.iri)),
                             tuple(schema.ranges_of(p.iri))))
        parents = {c.iri: {x for x in c.parents + c.equivalents if x != OWL + "Thing"}
                   for c in schema.classes.values()}
        out = cls.from_terms(rows, parents)
        out.inverses = {p.iri: set(p.inverse_of) for p in schema.properties.values() if p.inverse_of}
        out.defines = schema.defining_properties()
        return out

    @classmethod
    def from_terms(cls, rows: Iterable[tuple], parents: dict[str, set[str]] | None = None) -> Vocab:
        """rows: (iri, kind, label, comment, domains, ranges[, alt_labels])."""
        rows = [(*r, ()) if len(r) == 6 else tuple(r) for r in rows]
        counts: dict[str, int] = defaultdict(int)
        spaces: dict[str, int] = defaultdict(int)
        for iri, *_ in rows:
            counts[local_name(iri)] += 1
            spaces[_namespace(iri)] += 1
        main = max(spaces, key=spaces.get) if spaces else ""
        terms: dict[str, Term] = {}
        for iri, kind, label, comment, domains, ranges, alt in rows:
            name = local_name(iri)
            # a local name shared across namespaces stays short in the main one, prefixed elsewhere
            if (counts[name] > 1 and _namespace(iri) != main) or not re.fullmatch(r"[A-Za-z_][\w\-]*", name):
                name = _curie(iri)
            terms[name] = Term(iri, name, kind, label, comment, domains, ranges,
                               tuple(a for a in alt if a and a != label))
        return cls(terms, dict(parents or {}))

    # -- lookups
    @property
    def classes(self) -> list[Term]:
        return [t for t in self.terms.values() if t.kind == "class"]

    @property
    def properties(self) -> list[Term]:
        return [t for t in self.terms.values() if t.kind != "class"]

    @cached_property
    def defined_by(self) -> dict[str, set[str]]:
        """Per class, the properties whose having defines it (`defines` turned round)."""
        out: dict[str, set[str]] = {}
        for prop, classes in self.defines.items():
            for c in classes:
                out.setdefault(c, set()).add(prop)
        return out

    def get(self, name_or_iri: str) -> Term | None:
        return self.terms.get(name_or_iri) or self.by_iri.get(name_or_iri)

    def ancestors(self, cls_iri: str) -> frozenset[str]:
        if (known := self._ancestors.get(cls_iri)) is not None:
            return known
        seen, todo = set(), [cls_iri]
        while todo:
            for p in self.parents.get(todo.pop(), ()):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        self._ancestors[cls_iri] = out = frozenset(seen)
        return out

    def compatible(self, a: str, b: str) -> bool:
        """One class is the other or a subclass of it, either way (an undeclared side fits anything)."""
        return a == b or b in self.ancestors(a) or a in self.ancestors(b)

    def fits(self, cls_iri: str, declared: tuple[str, ...]) -> bool:
        return not declared or any(self.compatible(cls_iri, d) for d in declared)

    def fit(self, cls_iri: str, declared: tuple[str, ...]) -> float:
        """How well instances of `cls_iri` fit a declared domain/range: 1 = they all do (the class or
        a subclass), 0.8 = nothing declared, 0.5 = some may (a superclass), 0 = none."""
        if not declared:
            return 0.8
        if any(cls_iri == d or d in self.ancestors(cls_iri) for d in declared):
            return 1.0
        return 0.5 if any(cls_iri in self.ancestors(d) for d in declared) else 0.0

    def properties_of(self, cls_iri: str, kind: Kind | None = None) -> list[Term]:
        """Properties whose domain fits `cls_iri` (declared on it, a superclass or a subclass)."""
        return [p for p in self.properties if (kind is None or p.kind == kind) and self.fits(cls_iri, p.domains)]

    def nearest(self, name: str, kind: Kind | Iterable[Kind] | None = None, limit: int = 3) -> list[str]:
        """The closest names of terms (of `kind`), for 'X does not exist; nearest: …' messages."""
        kinds = {kind} if isinstance(kind, str) else set(kind or ("class", "object", "datatype"))
        names = sorted((t.name for t in self.terms.values() if t.kind in kinds), key=lambda n: (":" in n, n))
        key = local_name(name.split(":")[-1]).lower()
        # compared with the local part, so 'ub:worksFor' and 'worksFor' score alike; ties keep the
        # unprefixed (own-namespace) name first
        scored = process.extract(key, [local_name(n.split(":")[-1]).lower() for n in names], scorer=_closeness,
                                 limit=limit)
        return [names[i] for _, _, i in sorted(scored, key=lambda x: (-x[1], x[2]))]


# ------------------------------------------------------------------ does a text name a term?
_WORD = re.compile(r"\w+", re.UNICODE)


# English plurals not made with -s: the singular each stands for ("people" are persons)
IRREGULAR_PLURALS = {"people": "person", "men": "man", "women": "woman", "children": "child"}


def word_forms(word: str) -> set[str]:
    """A word and its possible singulars: 'courses' → {courses, course}; 'boxes' → {boxes, boxe, box};
    'faculties' → faculty; 'people' → person."""
    out = {word}
    if word in IRREGULAR_PLURALS:
        out.add(IRREGULAR_PLURALS[word])
    if word.endswith("ies") and len(word) > 4:
        out.add(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3 and word[:-2].endswith(("ss", "x", "z", "ch", "sh", "o")):
        # English adds -es after a sibilant or an o ("boxes", "classes", "heroes"); "trees", "courses" and
        # "houses" are tree, course and house + s (a single s before -es is far more often an e-word's)
        out.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        out.add(word[:-1])
    return out


def singular(word: str) -> str:
    """One form of a word for comparing names: its singular where English has one ('courses' → course,
    'people' → person), else the word."""
    return IRREGULAR_PLURALS.get(word) or min(word_forms(word), key=len)


def name_match(text: str, cls: Term, aliases: set[str] = frozenset()) -> tuple[int, int, str] | None:  # type: ignore[assignment]
    """(1 if `text` is exactly one of the class's names else 0, that name's word count, the name) for
    the best name of the class written in `text` (singular or plural); an alias word counts as a
    one-word name. None when `text` names the class nowhere."""
    words = [w.lower() for w in _WORD.findall(text)]
    best: tuple[int, int, str] | None = None
    for name in cls.names:
        target = name.split()
        n = len(target)
        if not n or not any(all(target[k] in word_forms(words[i + k]) for k in range(n))
                            for i in range(len(words) - n + 1)):
            continue
        found = (int(n == len(words)), n, name)
        best = found if best is None or found[:2] > best[:2] else best
    if best is None:
        alias = next((w for w in words if word_forms(w) & aliases), None)
        if alias is not None:
            return int(len(words) == 1), 1, alias
    return best


def names_class(text: str, cls: Term, aliases: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """Does `text` contain one of the class's names (in singular or plural), or one of its alias words?
    'staff members' names STAFF; 'subjects' names COURSE when 'subject' is an alias."""
    return name_match(text, cls, aliases) is not None


def _closeness(a: str, b: str, **_) -> float:
    """WRatio finds a name inside a longer one ('staf' in 'academicstaff' scores 90); averaged with
    the plain ratio, the name that differs by a letter ('staff') comes first."""
    return (fuzz.ratio(a, b) + fuzz.WRatio(a, b)) / 2


def _namespace(iri: str) -> str:
    return iri[: len(iri) - len(local_name(iri))]


def _curie(iri: str) -> str:
    """'http://other.org/onto#has_name' → 'onto:has_name' (last path segment, else the host's first word)."""
    ns = _namespace(iri).rstrip("/#")
    parts = [p for p in re.split(r"[/#]", ns.split("://", 1)[-1]) if p]
    segment = parts[-1] if len(parts) > 1 else (parts[0].split(".")[0] if parts else "")
    prefix = re.sub(r"[^a-z0-9]", "", segment.lower())[:10]
    return f"{prefix if prefix[:1].isalpha() else 'ns' + prefix}:{local_name(iri)}"


TERMS_QUERY = """SELECT ?t ?k (SAMPLE(?l) AS ?label) (SAMPLE(?c) AS ?comment) WHERE {
  VALUES ?k { <http://www.w3.org/2002/07/owl#Class> <http://www.w3.org/2000/01/rdf-schema#Class>
              <http://www.w3.org/2002/07/owl#ObjectProperty> <http://www.w3.org/2002/07/owl#DatatypeProperty> }
  ?t a ?k FILTER(isIRI(?t))
  OPTIONAL { ?t <http://www.w3.org/2000/01/rdf-schema#label> ?l }
  OPTIONAL { ?t <http://www.w3.org/2000/01/rdf-schema#comment> ?c }
} GROUP BY ?t ?k"""
LINKS_QUERY = """SELECT ?s ?p ?o WHERE {
  VALUES ?p { <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://www.w3.org/2000/01/rdf-schema#domain>
              <http://www.w3.org/2000/01/rdf-schema#range> }
  ?s ?p ?o FILTER(isIRI(?s) && isIRI(?o))
}"""
