"""A page's lines cut into segments: fields ("Label: value", "Label | value", "Label — value", "Label =
value", label, tab, value; a label line over bullets, over its value, or heading a table's one row; a
short question over the lines that answer it), a table of records (pyramid.reading.tables), the lines of a
card, a breadcrumb, and prose, whose
sentences the prose reader (pyramid.reading.prose) reads. " // " parts a line as a line break would; a
sentence that opens with "Label: …" is a field too."""

from __future__ import annotations

import re

from pyramid.normalise import codes_in, fold, name_key, strip_titles
from pyramid.reading.class_words import ClassWords
from pyramid.reading.english import (
    ABBREVIATIONS,
    CARD_NAME_JOINERS,
    PREPOSITIONS,
    STOPWORDS,
    TITLES,
)
from pyramid.reading.meaning import CONFIDENT, MIN_SIMILARITY, PropertyMeaning
from pyramid.reading.page import Segment
from pyramid.reading.prose import ProseReader
from pyramid.reading.tables import record_tables
from pyramid.reading.terms import is_date, is_named, quantity_number
from pyramid.reading.values import MAX_ITEM_WORDS, NUMBER, list_items, short_items

MIN_SENTENCE_WORDS = 4    # a value this long with a finite verb and a full stop is a sentence
MAX_LABEL_WORDS = 5       # a field's label is a short phrase: a longer one is a sentence's start
# a label and its value: "Label: v", "Label | v", "Label — v", "Label = v", "Label<TAB>v" (a table's row
# as text copied from a page)
_FIELD = re.compile(r"^\s*(?:[-•*·]\s*)?([^:|—–=\t\n]{1,60}?)[^\S\t]*(?::|：|\s\|\s|\s[—–]\s|\s=\s|\t+)\s*(.*)$")
# " // " splits a line into parts as a line break would ("X // Rank: … // Unit: …"); a URL's "//" has no spaces
_PART_BREAK = re.compile(r"\s+//\s+")
_COUNTED = re.compile(r"^(?:[^\W\d_]+\s+\d+(?:\.\d+)?|\d+(?:\.\d+)?\s+[^\W\d_]+)$")  # "Level 2", "3 credits"
_EMPHASIS = re.compile(r"\*\*|__|`")  # Markdown's bold and code marks: "**Position:** Professor"
MIN_PIPE_PARTS = 3  # "a | b | c" on a line that is no table row: parts, as lines; "Label | value" is a field
# "Label - value" (a spaced hyphen), tried when no other separator parts the line
_DASH_FIELD = re.compile(r"^\s*(?:[-•*·]\s+)?([^:|—–=\t\n\d]{1,60}?)\s+-\s+(\S.*)$")
# a question over the line that answers it ("What is X's role?" / "Professor"): an FAQ's label
MAX_QUESTION_WORDS = 12
_QUESTION_VALUE_WORDS = 40  # an answer's line longer than this is a sentence, unless it lists short items
_FIELD_AFTER_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z][\w ]{0,40}:\s)")
# a question and its answer on one line ("How many credits does it carry? 4."): read as a question over
# the line that answers it
_QUESTION_THEN_ANSWER = re.compile(r"^(\S.{2,}?\?)\s+([^?]+)$")
# a run-in heading: a word or two and a full stop before the paragraph's first sentence ("Research. Her
# projects …"): names what follows, states nothing, and would run into the sentence
_RUN_IN_HEADING = re.compile(r"^([A-Z][^\W\d_]+(?:\s+[^\W\d_]+){0,2})\.\s+(?=[A-Z])")
_SENTENCE_ENDS = (".", "!", "?", ":", ";")
# an interview's turn marks ("Q: …", "A. …", the question's and the answer's letter) say who speaks,
# not what is stated
_TURN_MARK = re.compile(r"^\s*(?:[QA]|Question|Answer)[.:)]\s+(?=\S)")
# "Code: X, Title: Y, Credits: 3": several fields on one line, each label a short phrase before ":"
_FIELD_AFTER_FIELD = re.compile(r",\s+(?=[A-Za-z][\w ]{0,40}:\s)")
MIN_INLINE_FIELDS = 3     # fewer is more likely a list whose item holds a colon ("Finance: Pricing")
_BULLET = re.compile(r"^\s*[-•*·]\s+(.+)$")
_CRUMB = re.compile(r"\s+[>›»]\s+")
_CARD_WORD = re.compile(r"[^\W\d_][\w'’.-]*|\d\w*")
MAX_DATELINE_WORDS = 3    # "News release", "Press notice": a few words beside the day a page is dated by
# a day as pages write one inside a line ("19 January 2025", "January 19, 2025", "2025-01-19")
_DAY_IN_LINE = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]+ \d{4}\b|\b[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)?, \d{4}\b|"
                          r"\b\d{4}-\d{1,2}-\d{1,2}\b")
MIN_CRUMBS = 3            # a trail of fewer crumbs ("Art > Design") may be a phrase, not where the page sits
MIN_BARE_LABELS = 2       # bare label lines over their values: fewer in a run may be a card's line
MIN_CARD_LINES = 2        # name lines in a row that make a card (a heading alone is no card)
SHORT_TITLE_CHARS = 3     # a page name this short opens many lines by chance: no sign the line is about it
MIN_LISTED = 3            # items that make a list of values rather than a sentence with a comma in it
SENTENCE_START_WORDS = 2  # a "label" longer than this holding the page's name starts a sentence about it


class PageSegmenter:
    """A page's lines as fields and prose values; a line's label is read with the schema's words
    (a label alone on its line plainly means a property, or is a class's word)."""

    def __init__(self, meaning: PropertyMeaning, words: ClassWords, prose: ProseReader) -> None:
        self.meaning, self.words, self.prose = meaning, words, prose

    def _names_label(self, label: str) -> bool:
        """The label plainly means the property that names things ("Name", "Full name")."""
        prop = self.meaning.confident(label)
        return prop is not None and is_named(self.meaning.vocab.by_iri[prop])

    def segments(self, title: str, text: str) -> tuple[list[Segment], list[str]]:
        """The page's fields and the values its sentences state, with its sentences (for what is
        left over: the description)."""
        raw = text.splitlines()
        out, tabled = record_tables(raw, self.words.names_thing, self.words.only_class_words, self._names_label)
        prose: list[str] = []
        lines = [line for n, ln in enumerate(raw) for part in _parts(_EMPHASIS.sub("", "" if n in tabled else ln))
                 for line in _question_and_answer(_without_run_in_heading(_TURN_MARK.sub("", part.rstrip())))]
        below = self._labels_above_values(lines, title)
        card = _card_block(lines) - set(below) - set(below.values())
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if not line and prose and not prose[-1].rstrip().endswith(_SENTENCE_ENDS):
                # a blank line ends a paragraph: a heading without a full stop ("Welcome to my page") does
                # not run into the next paragraph's first sentence
                prose[-1] = prose[-1].rstrip() + "."
            if not line or set(line) <= set("|-: "):
                continue
            if i - 1 in below:  # a label on its own line, its value on the next
                out.append(Segment(line.rstrip(":："), lines[below[i - 1]].strip(), "field"))
                i = below[i - 1] + 1
                continue
            if i - 1 in card and not (_DASH_FIELD.match(line) and self.field_of(line, title)):
                # a line of a card ("Dr Ann Lee / Associate Professor / School of Design"): a value on
                # its own, said as what the entity is — never run together with the next line as prose
                if _COUNTED.match(line):  # "Level 2", "3 credits": a number and its noun, read as a sentence
                    prose.append(line + ".")
                elif fold(line) != fold(title) and strip_titles(line) != strip_titles(title):
                    out.append(Segment(line, line, "prose"))
                continue
            cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else []
            if cells and i < len(lines) and lines[i].strip().startswith("|") and set(lines[i].strip()) <= set("|-: "):
                row = _one_row_below(cells, lines, i + 1)
                if row is not None and all(_label_like(c) for c in cells):
                    # a record laid out across: the header row's cells label the one row below it
                    out += [Segment(label, value, "field") for label, value in zip(cells, row) if value]
                    i += 2
                continue  # a table's header row (the rule line follows it): names the columns, states nothing
            if (answer := self._answer_below(line, lines, i, title)) is not None:
                out.append(Segment(_question_label(line, title), answer[0], "field"))
                i = answer[1]
                continue
            field_ = self.field_of(line, title)
            if field_ is None and i < len(lines) and _BULLET.match(lines[i]) and _label_like(line) \
                    and not _FIELD.match(line) and not _BULLET.match(line) and not fold(line).startswith(fold(title)):
                field_ = (line.rstrip(":："), "")  # a label alone on its line ("Expertise"), bullets below
            if field_ is not None and not field_[1] and self._fields_below(lines, i, title):
                continue  # a heading over bullets that are fields ("Highlights:" / "• Phone: …"): each is read
            if len(cells) == 2 and _label_like(cells[0]):
                out.append(Segment(cells[0], cells[1], "field"))
            elif field_ is not None and len(pieces := self._fields_in(line, title)) > 1:
                out += [Segment(label, value, "field") for label, value in pieces]
            elif field_ is not None and self._heading_over_prose(*field_):
                prose.append(field_[1])  # "Getting there — The library sits in …": a heading over sentences
            elif field_ is not None:
                label, value = field_
                if not value:  # a label line, its values on the bullet lines below
                    value, i = self._bullets_below(label, lines, i, title, out, prose)
                if value:
                    out.append(Segment(label, value, "field"))
            elif fold(line) == fold(title) or self._dateline(line):
                # the page's name as a heading (it would run into the next sentence), or the day the page was
                # written ("News release · 19 January 2025"): nothing of its entity
                continue
            elif len(crumbs := _CRUMB.split(line)) >= MIN_CRUMBS and fold(crumbs[-1]) == fold(title):
                # a breadcrumb trail ("Home > Faculty of X > Department of Y"): the page sits under the crumb
                # before its own
                out.append(Segment("part of", crumbs[-2].strip(), "prose", mention=True))
            else:
                self._sentences(line, title, out, prose)
        stated, sentences = self.prose.read(prose, title)
        out += stated
        return out, sentences

    def _labels_above_values(self, lines: list[str], title: str) -> dict[int, int]:
        """{label line: value line} for labels written on a line of their own over their value (a
        definition list or a two-column table flattened to text: "Position" / "Professor" / "Unit" / …).
        A label line ends with a colon, or plainly means a property, or is a class's word alone; bare
        ones count only two or more in a run of lines, alternating with their values, since a card's
        single line ("Associate Professor") can look like a label too."""
        pairs: dict[int, int] = {}
        run: dict[int, int] = {}
        i = 0
        while i <= len(lines):
            line = lines[i].strip() if i < len(lines) else ""
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if line and nxt and self._label_line(line, title) and not self._label_line(nxt, title) \
                    and not _BULLET.match(nxt) and not _FIELD.match(nxt) and not nxt.endswith("?"):
                run[i] = i + 1
                i += 2
                continue
            if not line or i == len(lines) or i - 1 not in run.values():
                # a blank line, or a second line in a row that starts no pair, ends the run: keep its
                # pairs if there are two, or the labels that say they are labels (a colon)
                pairs.update({k: v for k, v in run.items()
                              if len(run) >= MIN_BARE_LABELS or lines[k].strip().endswith((":", "："))})
                run = {}
            i += 1
        return pairs

    def _label_line(self, line: str, title: str) -> bool:
        bare = line.rstrip(":：").strip()
        if not _label_like(bare) or fold(bare) == fold(title) or NUMBER.match(bare) or \
                ((m := _FIELD.match(line)) and m.group(2).strip()) or _DASH_FIELD.match(line):
            return False  # a field already ("Name: X"): a label and its value on one line
        if line.endswith((":", "：")):
            return True
        return self.words.only_class_words(bare) or \
            (not self.words.names_thing(bare) and float(self.meaning.sims(bare).max()) >= CONFIDENT)

    def _fields_in(self, line: str, title: str) -> list[tuple[str, str]]:
        """The fields of a line that holds several ("Code: X, Title: Y, Level: 2"), when every piece
        between the commas is a field with a value and none is a ";" list; else none."""
        if ";" in line:
            return []
        pieces = [self.field_of(piece, title) for piece in _FIELD_AFTER_FIELD.split(line)]
        ok = len(pieces) >= MIN_INLINE_FIELDS and all(f is not None and f[1] for f in pieces)
        return [f for f in pieces if f] if ok else []

    def _answer_below(self, line: str, lines: list[str], i: int, title: str) -> tuple[str, int] | None:
        """(the answer, the index after it) when `line` is a short question and the lines from `i` up to
        the next question or blank line answer it with values, not sentences (a line that ends with a
        full stop is a value when it has no verb: "The Department of X."); else None."""
        if not line.endswith("?") or len(line.split()) > MAX_QUESTION_WORDS:
            return None
        values = []
        while i < len(lines) and lines[i].strip() and not lines[i].strip().endswith("?"):
            values.append(lines[i].strip())
            i += 1
        listed = short_items(values[0]) and len(list_items(values[0])) >= MIN_LISTED if values else False
        if len(values) == 1 and values[0].endswith(".") and not listed and (said := self.prose.answered(values[0], title)):
            values = [said]  # "Collection day is Wednesday.": the clause's last value answers
        # a long line is a sentence unless it is a list of mostly short items ("a · b · c …" runs long)
        if not values or any((v.endswith(".") and not self._said_as_values(v)) or
                             (len(v.split()) > _QUESTION_VALUE_WORDS and not short_items(v)) for v in values):
            return None
        items = [m.group(1).strip() if (m := _BULLET.match(v)) else v for v in values]
        # (a quantity keeps its hedge for `quantity_number` to read: "Up to 160 people" is 160, not "to 160 people")
        items = [_counted_in((v.rstrip(".") if quantity_number(v.rstrip(".")) else
                              self.prose.without_lead_words(v.rstrip("."))).strip(), line) for v in items]
        return "; ".join(items), i

    def _sentences(self, line: str, title: str, out: list[Segment], prose: list[str]) -> None:
        """A line of sentences, to `prose`; a field after them ("… a sentence. Research interests: a, b, c."),
        to `out`."""
        if (bullet := _BULLET.match(line)) is not None:  # "• Led by Ann Lee": a sentence of its own
            line = bullet.group(1).strip()
            line += "" if line.endswith(_SENTENCE_ENDS) else "."
        for piece in _FIELD_AFTER_SENTENCE.split(line):
            f = self.field_of(piece, title)
            if f is not None and f[1]:
                out.append(Segment(f[0], f[1].rstrip("."), "field"))
            else:
                prose.append(piece)

    def _heading_over_prose(self, label: str, value: str) -> bool:
        """A run-in heading before sentences ("Getting there — The library sits in …. It is at …."): the
        value is said in sentences (a finite verb, a full stop) under a heading that is no phrase's start
        (a preposition opens one: "In Food Safety: From Farm to Fork, students …")."""
        words = label.split()
        return bool(words) and words[0].lower() not in PREPOSITIONS and value.rstrip().endswith(_SENTENCE_ENDS) and \
            len(value.split()) >= MIN_SENTENCE_WORDS and not short_items(value) and not self.prose.verbless(value)

    def _fields_below(self, lines: list[str], i: int, title: str) -> bool:
        """The bullet lines from `i` are mostly fields of their own ("• Phone: 0113 …", "• Cabinet member: …")."""
        bullets = []
        while i < len(lines) and (m := _BULLET.match(lines[i])):
            bullets.append(m.group(1).strip())
            i += 1
        fields = [b for b in bullets if (f := self.field_of(b, title)) is not None and f[1]]
        return len(fields) * 2 >= len(bullets) > 0

    def _bullets_below(self, label: str, lines: list[str], i: int, title: str, out: list[Segment],
                       prose: list[str]) -> tuple[str, int]:
        """The bullet lines from `i` under a label: the label's values, joined by ";" (those that say something
        by themselves under a label naming no property are read on their own), and the index after them."""
        items = []
        while i < len(lines) and (bullet := _BULLET.match(lines[i])):
            if self._said_alone(label, bullet.group(1).strip(), title):
                self._sentences(lines[i], title, out, prose)
            else:
                items.append(bullet.group(1).strip())
            i += 1
        return "; ".join(items), i

    def _dateline(self, line: str) -> bool:
        """A line that dates the page: a day and a few words around it that name no property and hold no
        verb ("News release · 19 January 2025", "Posted 4 May 2024" holds one and stays a sentence)."""
        m = _DAY_IN_LINE.search(line)
        if m is None or not is_date(m.group(0)):
            return False
        rest = " ".join(w for w in re.split(r"[\s·|,–—-]+", line[:m.start()] + " " + line[m.end():]) if w)
        return len(rest.split()) <= MAX_DATELINE_WORDS and (not rest or self.meaning.vague(rest)) and \
            self.prose.nounish(rest)

    def _said_alone(self, label: str, item: str, title: str) -> bool:
        """A bullet under a heading that names no property ("Key points", "What you'll find") that says
        something by itself: a field of its own, a clause whose subject is left out ("Run by …", "In the
        old town"), or a number and its noun ("8 lanes"). The heading's other bullets stay its values."""
        if not self.meaning.vague(label):
            return False
        field_ = self.field_of(item, title)
        return (field_ is not None and bool(field_[1])) or bool(_COUNTED.match(item)) or self.prose.predicate_only(item)

    def _said_as_values(self, line: str) -> bool:
        """A line that ends like a sentence but states values: no finite verb in it, or a list of short
        items whose first has none ("Mostly a, b, c made using d and e." — the tagger reads a verb into
        a long list's nouns now and then; a clause says its verb before its first comma)."""
        if short_items(line) and len(list_items(line)) >= MIN_LISTED:
            return self.prose.verbless(list_items(line)[0])
        return self.prose.verbless(line)

    def field_of(self, line: str, title: str) -> tuple[str, str] | None:
        """(label, value) when the line is one field; else None."""
        if fold(line).startswith(fold(title)) and len(fold(title)) > SHORT_TITLE_CHARS:
            return None  # the line opens with the page's name ("AF3S01 Service-Learning: Financial …")
        m = _FIELD.match(line)
        if m and _own_code(m.group(1), title):
            return None  # "AAE3001: Fundamentals of …" on that subject's page opens with its name, not a label
        if m and _label_like(m.group(1)) and not _sentence_start(m.group(1), title):
            return m.group(1).strip(), m.group(2).strip()
        # "Position - Professor": a spaced hyphen parts a label from its value when the left side reads as a
        # label (no digits, near some property's meaning) — "Hong Kong - China" or "AAE1001 - …" are not fields
        m = _DASH_FIELD.match(line)
        if m and _label_like(m.group(1)) and not _sentence_start(m.group(1), title) and \
                float(self.meaning.sims(m.group(1)).max()) >= MIN_SIMILARITY:
            return m.group(1).strip(), m.group(2).strip()
        return None


def _own_code(label: str, title: str) -> bool:
    """The "label" is the page's own code (or codes): the page's name, said before its title."""
    codes = set(codes_in(label))
    return bool(codes) and codes <= set(codes_in(title)) and not set(fold(label).split()) - {fold(c) for c in codes}


def _parts(line: str) -> list[str]:
    """A line's parts, each read as a line: " // " parts a line; so does " | " when it parts three or
    more pieces on a line that is not a table's row."""
    out = []
    for part in _PART_BREAK.split(line):
        pieces = part.split(" | ")
        if len(pieces) >= MIN_PIPE_PARTS and not part.lstrip().startswith("|"):
            out += [p.strip() for p in pieces]
        else:
            out.append(part)
    return out


def _one_row_below(header: list[str], lines: list[str], i: int) -> list[str] | None:
    """The cells of the table's only row, at line i, when the table has at least `MIN_PIPE_PARTS`
    columns (two columns are label and value, row by row) and that row has as many cells."""
    if len(header) < MIN_PIPE_PARTS or i >= len(lines) or not lines[i].strip().startswith("|") or \
            (i + 1 < len(lines) and lines[i + 1].strip().startswith("|")):
        return None
    row = [c.strip() for c in lines[i].strip().strip("|").split("|")]
    return row if len(row) == len(header) else None


def _without_run_in_heading(line: str) -> str:
    """The line without a run-in heading ("Research. Her projects …" → "Her projects …"); an
    abbreviation before a name ("Dr. Lee …", "What is Dr. Lee's role?") ends no heading."""
    m = _RUN_IN_HEADING.match(line)
    if m is None or fold(m.group(1)).split()[-1] in ABBREVIATIONS | TITLES:
        return line
    return line[m.end():]


def _question_and_answer(line: str) -> list[str]:
    """A short question and its answer on one line, as two lines; any other line as it is."""
    m = _QUESTION_THEN_ANSWER.match(line)
    if m is None or len(m.group(1).split()) > MAX_QUESTION_WORDS:
        return [line]
    return [m.group(1), m.group(2)]


def _counted_in(value: str, label: str) -> str:
    """ "Level 2" answering "At which level is it offered?": the number, when the word counted is the
    label's own; any other value as it is."""
    m = re.match(r"^([^\W\d_]+)\s+(\d+(?:\.\d+)?)$", value)
    return m.group(2) if m and m.group(1).lower() in fold(label).split() else value


def _question_label(question: str, title: str) -> str:
    """What a question asks, as a label: the page's name and a possessive taken out ("What is Dr X's
    role?" → "What is role"). The question's other words stay: "What do they work on" means research
    topics by all its words, "work on" alone a place of work."""
    text = question.rstrip("?").strip()
    if title:
        text = re.sub(re.escape(title) + r"(?:['’]s)?", " ", text, flags=re.IGNORECASE)
    return " ".join(text.split()) or question


def _label_like(text: str) -> bool:
    words = text.split()
    return 0 < len(words) <= MAX_LABEL_WORDS and not text.rstrip().endswith((".", "?", "!")) and \
        any(ch.isalpha() for ch in text)


def _sentence_start(label: str, title: str) -> bool:
    """'Dr X is …' wrongly split at a colon later in the line: the 'label' is the start of a sentence
    about the entity (its name), not a field name."""
    return bool(set(name_key(label).split()) & set(name_key(title).split()) - STOPWORDS) and \
        len(label.split()) > SENTENCE_START_WORDS


def _card_line(line: str) -> bool:
    """A short line that only names something: every word capitalised (or a word that joins a name),
    no field, no list mark, no sentence's end."""
    line = line.strip()
    if not line or line[-1] in ".!?:;" or _FIELD.match(line) or _BULLET.match(line) or "|" in line:
        return False
    words = _CARD_WORD.findall(line)
    return bool(words) and len(line.split()) <= MAX_ITEM_WORDS and \
        all(w[0].isupper() or w[0].isdigit() or w.lower() in CARD_NAME_JOINERS for w in words)


def _card_block(lines: list[str]) -> set[int]:
    """The lines of cards: two or more name lines in a row (a heading alone is no card)."""
    out: set[int] = set()
    run: list[int] = []
    for n, line in enumerate([*lines, ""]):
        if line.strip() and _card_line(line):
            run.append(n)
            continue
        if len(run) >= MIN_CARD_LINES:
            out.update(run)
        run = []
    return out
