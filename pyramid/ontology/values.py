"""The value index: spans of a question that are values of a datatype property ("mechatronics" is a
research interest, "Doctor of Philosophy" a degree), so a question can name a value as it names an
instance.

    index = ValueIndex.from_select(layer.select_trusted, vocab, fingerprint=store_generation)
    index.matches(question, skip=[(start, end), ...]) -> [ValueMatch(prop, text, start, end, exact)]

Indexed: every literal of a datatype property of the vocabulary that is not label-like (labels name
instances: pyramid.ontology.labels) and not a URL, a number or a long text. A span matches exactly
when its fold (pyramid.normalise.fold) equals a value's, or would in the singular; a span of content words that only occurs
inside values ("robots" in "humanoid robots") matches with `exact=False`, when nothing exact did.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pyramid.normalise import fold
from pyramid.ontology.labels import LABEL_LIKE
from pyramid.reading.english import STOPWORDS
from pyramid.vocab import Vocab, local_name, word_forms

Select = Callable[[str], Iterable[dict[str, str]]]
MAX_VALUE_CHARS = 100   # longer literals are descriptions, not values a question names
MAX_SPAN = 8            # words
MIN_CHARS = 3
FORMAT = 2
_WORD = re.compile(r"\w+(?:['’ʼ]\w+)*", re.UNICODE)
_NUMBER = re.compile(r"^[\d.,\s]+$")


@dataclass(frozen=True)
class ValueMatch:
    prop: str          # the property's short name (Vocab)
    text: str          # the span of the question, as written
    start: int
    end: int
    exact: bool        # the span is a whole value (else it occurs inside values)
    count: int         # how many subjects hold such a value
    stored: tuple[str, ...] = ()   # exact: the values as stored (case, punctuation)


@dataclass
class ValueIndex:
    values: dict[str, dict[str, int]] = field(default_factory=dict)   # folded value → {prop: subjects}
    fingerprint: str = ""
    written: dict[str, list[str]] = field(default_factory=dict)       # folded value → the values as stored

    def __post_init__(self) -> None:
        # word → folded values holding it, for spans that occur inside values; not an e-mail or web
        # address, whose parts are someone's names ("Who reports to Adaeze?" names no address)
        self._by_word: dict[str, set[str]] = defaultdict(set)
        for key in self.values:
            if any(_ADDRESS.search(w) for w in self.written.get(key, ())):
                continue
            for w in key.split():
                if w not in STOPWORDS:
                    self._by_word[w].add(key)

    @classmethod
    def from_select(cls, select: Select, vocab: Vocab, *, fingerprint: str = "") -> ValueIndex:
        props = [p for p in vocab.properties if p.kind == "datatype" and not LABEL_LIKE.search(local_name(p.iri))]
        values: dict[str, dict[str, int]] = defaultdict(dict)
        written: dict[str, list[str]] = defaultdict(list)
        for p in props:
            rows = select(f"SELECT ?v (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s <{p.iri}> ?v FILTER(isLiteral(?v)) }} "
                          "GROUP BY ?v")
            for r in rows:
                text = r.get("v", "")
                if not text or len(text) > MAX_VALUE_CHARS or text.startswith(("http://", "https://")) \
                        or _NUMBER.match(text):
                    continue
                key = _edges_stripped(fold(text))
                if len(key) >= MIN_CHARS and key not in STOPWORDS:
                    values[key][p.name] = values[key].get(p.name, 0) + int(r.get("n", "1"))
                    if text not in written[key] and len(written[key]) < 8:
                        written[key].append(text)
        return cls(dict(values), fingerprint, dict(written))

    # -- persistence (the workspace cache; keyed by the store's generation like the label index)
    def save(self, path: Path) -> None:
        from pyramid.workspace import atomic_write_json

        atomic_write_json(path, {"format": FORMAT, "fingerprint": self.fingerprint, "values": self.values,
                                 "written": self.written})

    @classmethod
    def load(cls, path: Path, fingerprint: str) -> ValueIndex | None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("format") != FORMAT or data.get("fingerprint") != fingerprint:
            return None
        return cls(data["values"], fingerprint, data.get("written", {}))

    def __len__(self) -> int:
        return len(self.values)

    # -- queries
    def matches(self, question: str, skip: Iterable[tuple[int, int]] = ()) -> list[ValueMatch]:
        """Non-overlapping spans of `question` (outside `skip`) that are values, longest first; spans
        inside values only where no exact one was found."""
        taken = list(skip)
        tokens = [(m.start(), m.end(), fold(m.group())) for m in _WORD.finditer(question)]
        tokens = [t for t in tokens if t[2] and not any(a <= t[0] < b for a, b in taken)]
        used = [False] * len(tokens)
        found: list[ValueMatch] = []
        for exact in (True, False):
            if found and not exact:
                break
            for n in range(min(MAX_SPAN, len(tokens)), 0, -1):
                for a in range(len(tokens) - n + 1):
                    b = a + n
                    if any(used[a:b]) or not _contiguous(tokens[a:b], question):
                        continue
                    words = " ".join(t[2] for t in tokens[a:b]).split()
                    if words[0] in STOPWORDS or words[-1] in STOPWORDS:
                        continue
                    key = " ".join(words)
                    props = self.values.get(key) if exact else self._inside(words)
                    if not props and exact:  # a value in the plural ("assistant professors")
                        key = next((k for k in sorted(f"{' '.join(words[:-1])} {w}".strip()
                                                      for w in word_forms(words[-1]) - {words[-1]})
                                    if k in self.values), key)
                        props = self.values.get(key)
                    if not props or len(key) < MIN_CHARS:
                        continue
                    start, end = tokens[a][0], tokens[b - 1][1]
                    stored = tuple(self.written.get(key, ())) if exact else ()
                    for prop, count in sorted(props.items(), key=lambda kv: -kv[1]):
                        found.append(ValueMatch(prop, question[start:end], start, end, exact, count, stored))
                    for k in range(a, b):
                        used[k] = True
        return sorted(found, key=lambda m: (m.start, -m.count))

    def _inside(self, words: list[str]) -> dict[str, int]:
        """{prop: subjects} of the values that hold `words` as a run."""
        content = [w for w in words if w not in STOPWORDS]
        if not content:
            return {}
        keys = set.intersection(*(self._by_word.get(w, set()) for w in content))
        phrase = f" {' '.join(words)} "
        out: dict[str, int] = {}
        for key in keys:
            # a value longer than any span a question names whole is a text, and its words are not its
            # name ("taken" in "students who had previously taken the subject … are excluded")
            if phrase in f" {key} " and len(key.split()) <= MAX_SPAN:
                for prop, n in self.values[key].items():
                    out[prop] = out.get(prop, 0) + n
        return out


_ADDRESS = re.compile(r"@|^www\.", re.IGNORECASE)


def _edges_stripped(key: str) -> str:
    """A value's key without function words at its ends: "and biotechnology of microorganisms", a
    list item cut at its conjunction, is found as "biotechnology of microorganisms" (a question's span
    never begins or ends on a function word)."""
    words = key.split()
    while words and words[0] in STOPWORDS:
        words.pop(0)
    while words and words[-1] in STOPWORDS:
        words.pop()
    return " ".join(words)


def _contiguous(tokens: list[tuple[int, int, str]], question: str) -> bool:
    """No punctuation other than spaces, hyphens and apostrophes between the tokens of a span."""
    return all(question[a[1]:b[0]].strip(" -'’") == "" for a, b in zip(tokens, tokens[1:]))
