"""Words and sentences of a text, with their character offsets: the tokenizer and the sentence splitter
every rule reader, answer and summary shares (abbreviations, initials and closing quotes stay inside
their sentence)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyramid.normalise import CODE_TOKEN as CODE
from pyramid.reading.english import ABBREVIATIONS, NUMBER_WORDS

_TOKEN = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\w+(?:[-.’']\w+)*|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def cap(self) -> bool:
        return self.text[:1].isupper() or bool(CODE.match(self.text))

    @property
    def word(self) -> bool:
        return self.text[:1].isalnum()

    @property
    def number(self) -> bool:
        return self.text[:1].isdigit() or self.low in NUMBER_WORDS


def tokenize(text: str) -> list[Token]:
    out = []
    for m in _TOKEN.finditer(text):
        t = m.group()
        # possessive 's as its own token: "Chen's" → "Chen", "'s"
        if len(t) > 2 and t[-2] in "'’" and t[-1] in "sS":
            out += [Token(t[:-2], m.start(), m.end() - 2), Token(t[-2:], m.end() - 2, m.end())]
        elif t.endswith(".") and t.count(".") > 1:  # "F.C." keeps its dots
            out.append(Token(t, m.start(), m.end()))
        else:
            out.append(Token(t, m.start(), m.end()))
    return out


# ------------------------------------------------------------------ sentences
@dataclass(frozen=True)
class Sentence:
    text: str
    start: int
    end: int


def split_sentences(text: str, *, prose: bool = False) -> list[Sentence]:
    """Sentences of `text` with their character offsets. A full stop ends a sentence when the next word
    starts with a capital letter or a digit, unless the word before it is an abbreviation (Dr., Prof.,
    St.) or a single capital letter (an initial); closing quotes and brackets after it stay with it.
    '!', '?', ';' and line breaks always end one — for the parse, which wants clauses apart. `prose`
    (answers, summaries): ';' does not, and '!' or '?' only before a space or the end ("What?!" is one
    sentence; "Yahoo! Finance" is still cut)."""
    out, start = [], 0
    n = len(text)

    def close(i: int) -> int:
        """Past the closing quotes and brackets after position i."""
        j = i + 1
        while j < n and text[j] in "\"'”’)":
            j += 1
        return j

    i = 0
    while i < n:
        ch = text[i]
        cut = 0  # where the sentence ends, when it ends at this character
        if ch == "\n" or (ch == ";" and not prose):
            cut = i + 1
        elif ch in "!?":
            j = close(i)
            cut = j if not prose or j >= n or text[j].isspace() else 0
        elif ch == ".":
            j = close(i)
            if j >= n:
                cut = j
            elif text[j].isspace():
                k = j
                while k < n and text[k].isspace():
                    k += 1
                word_before = re.search(r"([\w.]+)$", text[start:i])
                wb = word_before.group(1).lower() if word_before else ""
                abbrev = wb in ABBREVIATIONS or (len(wb) == 1 and wb.isalpha()) or "." in wb
                if k < n and (text[k].isupper() or text[k].isdigit() or text[k] in "\"“") and not abbrev:
                    cut = j
        if cut:
            piece = text[start:cut]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                out.append(Sentence(piece.strip(), start + lead, start + lead + len(piece.strip())))
            start = cut
            i = cut
            continue
        i += 1
    piece = text[start:]
    if piece.strip():
        lead = len(piece) - len(piece.lstrip())
        out.append(Sentence(piece.strip(), start + lead, start + lead + len(piece.strip())))
    return out

