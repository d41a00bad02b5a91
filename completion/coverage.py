"""Is a KG cluster new knowledge, or an existing attribute said in other words?

Two tests, either one sets `covered_by`:
* **by wording** — the medoid phrase is at least `covered_threshold` cosine-similar to an existing
  class-attribute phrase ('staff has research interests in' vs 'staff has research interest');
* **by values** — a share ≥ `value_threshold` of the cluster's typed triples state, for their subject,
  a value the ontology already holds for that individual under one existing attribute (KG
  'Prof. X is a Professor' vs ontology 'X has_position "Professor"'). Values match after lower-
  casing and whitespace folding, exactly or by containment when the shorter side has ≥ 5
  characters (the PolyU values hold fragments such as 'PhD (Caltech').
The value test is what keeps generic relations ('is a', 'has') from being proposed when their
objects are already in the ontology under a precise attribute.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from completion.linking import Typing
from completion.names import local_name
from completion.types import KGTriple, OntologyView
from pyramid.normalise import fold

MIN_CONTAIN = 5


def _norm(text: str) -> str:
    if text.startswith(("http://", "https://")) and " " not in text:
        text = local_name(text)
    return fold(text)


class AttributeValues:
    """The ontology's attribute values per individual, normalised for matching."""

    def __init__(self, view: OntologyView) -> None:
        attrs = {p.attribute for p in view.pairs}
        by_subject: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for s, p, v in view.facts:
            if p in attrs and v.strip():
                by_subject[s].append((p, _norm(v)))
        self._by_subject = by_subject

    def attribute_shares(self, triples: Sequence[KGTriple], typing: Typing) -> tuple[Counter[str], int]:
        """Per attribute, how many of the typed `triples` restate one of its values; and how many typed."""
        hits: Counter[str] = Counter()
        typed = 0
        for t in triples:
            iri = typing.iri(t.subject)
            if iri is None:
                continue
            typed += 1
            obj = _norm(t.object)
            matched = {p for p, v in self._by_subject.get(iri, ()) if _same(obj, v)}
            hits.update(matched)
        return hits, typed

    def covering(self, triples: Sequence[KGTriple], typing: Typing, threshold: float) -> tuple[str | None, float]:
        hits, typed = self.attribute_shares(triples, typing)
        if not typed or not hits:
            return None, 0.0
        attr, n = hits.most_common(1)[0]
        share = n / typed
        return (attr if share >= threshold else None), share


def _same(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= MIN_CONTAIN and short in long_
