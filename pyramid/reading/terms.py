"""What the schema's properties take and where they apply: a datatype property's declared range, a
name-like property (a name, title, code or label), a property's fit to a class by its domains."""

from __future__ import annotations

import datetime
import re

from pyramid.reading.english import (
    BOOLEAN_WORDS,
    EMAIL_NOUNS,
    MONTH_NUMBERS,
    MONTHS,
    NUMBER_HEDGES,
    PHONE_NOUNS,
    SCALE_WORDS,
    SCALES,
    TIME_NOUNS,
    WEB_NOUNS,
    passive_agent,
)
from pyramid.reading.values import NUMBER
from pyramid.vocab import Term, Vocab, local_name

LABEL_LIKE = re.compile(r"(^|[_\s])(name|title|code|label)$")
NUMERIC_RANGES = {"integer", "int", "decimal", "double", "float", "nonNegativeInteger", "positiveInteger", "long",
                  "short", "gYear"}
# XML Schema's datatypes of dates and times
TEMPORAL_RANGES = {"date", "dateTime", "dateTimeStamp", "time", "gYear", "gYearMonth", "gMonth", "gMonthDay", "gDay"}
_ADDRESS_STARTS = ("http://", "https://", "www.")  # how a value for an anyURI range begins
_EMAIL = re.compile(r"^\S+@\S+\.\w+$")
_PHONE = re.compile(r"^[+(]?\d[\d\s().-]{5,}\d$")
# a phone number inside a phrase: digits in groups, no letters ("ring 0113 496 0695 for bookings")
_PHONE_IN = re.compile(r"(?<![\w.,/£$€¥])[+(]?\d[\d \t().-]{5,}\d(?![\w.,]\d)")
_YEAR_SPAN = re.compile(r"\(?(?:1[5-9]|20)\d\d\s*[-–/]\s*(?:(?:1[5-9]|20)?\d\d)\)?")  # "(2008-2014)", "2019-22"
_BRACKETED_YEAR = re.compile(r"\((?:1[5-9]|20)\d\d\)")  # "222 (2020) 105469": a volume, its year, a page
_MONEY = re.compile(r"[$€£¥]\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d,])")
_DATE = re.compile(r"^(?:(\d{4}-\d{1,2}-\d{1,2})|\d{1,2}(?:st|nd|rd|th)? [A-Za-z]+ \d{4}|"
                   r"[A-Za-z]+ \d{1,2}(?:st|nd|rd|th)?,? \d{4})$")
_YEAR_SAID = re.compile(r"(?<![\d.])[12]\d{3}(?!\d)")  # a year in a phrase, before a comma too ("1931, again …")
_YEAR = re.compile(r"(?<![\d.,])[12]\d{3}(?![\d.,])")  # a calendar year inside a value ("since 2004", "1992-07-06")
# the day-bearing ranges: their values are written as ISO dates (xsd:date's lexical form)
DAY_RANGES = {"date", "dateTime", "dateTimeStamp"}
_DAY_MONTH_YEAR = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?(?: of)? ([A-Za-z]+)\.?,? (\d{4})$")
_MONTH_DAY_YEAR = re.compile(r"^([A-Za-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$")
_ISO_DAY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
MAX_SHAPED_WORDS = 8      # a phrase holding an address this short is a way to reach it ("By e-mail at …")
MAX_AMOUNT_WORDS = 12     # a phrase holding one sum of money this short says what something costs
MIN_PHONE_GROUPS = 3      # "212 555 0134": a number dialled in groups; "2008-2014" is two years
MIN_DOTTED_PHONE_DIGITS = 10  # digits parted by dots are a time ("9.00-17.00") unless a whole phone number
SUPERCLASS_FIT = 0.5      # Vocab.fit of a domain above the class (some of its things may have it): no fit


def holds_time(p: Term) -> bool:
    """The property's values are times: its declared range is a date or time datatype, or its name
    says one ("opening date", "year founded")."""
    return bool({local_name(r) for r in p.ranges} & TEMPORAL_RANGES) or bool(set(p.words.lower().split()) & TIME_NOUNS)


def value_fits(p: Term, value: str) -> bool:
    """A datatype property's declared range takes the value: a number for numeric ranges and years, a
    boolean word for booleans, an address for URIs and for a property named for an e-mail or web
    address, a phone number for one named for a phone; any text for strings and undeclared ranges."""
    ranges = {local_name(r) for r in p.ranges}
    value = value.strip()
    # a property named for an address or a number of its own shape takes only values of that shape,
    # whatever its range: "her PhD" is no e-mail address
    shape = shape_named(p)
    if shape is not None:
        return shape_of(value) == shape
    if ranges & {"gYear", "gYearMonth"}:
        return bool(_YEAR.search(value))  # a year is four digits: "6" is no year of birth
    if ranges & NUMERIC_RANGES:
        return bool(NUMBER.match(value))
    if ranges & (TEMPORAL_RANGES - {"time", "gMonth", "gDay", "gMonthDay"}):
        # a date or a year holds a year: "specialist hospital" and a "91-minute feature film" hold none
        return bool(_YEAR.search(value))
    if ranges & TEMPORAL_RANGES:
        return any(ch.isdigit() for ch in value)
    if "boolean" in ranges:
        return value.lower() in BOOLEAN_WORDS
    if "anyURI" in ranges:
        return value.lower().startswith(_ADDRESS_STARTS)
    return True


def shape_named(p: Term) -> str | None:
    """The shape a property's names say its values have: "email", "web" or "phone" (None: any)."""
    words = set(" ".join(p.names).lower().replace("_", " ").split())
    return "email" if words & EMAIL_NOUNS else "web" if words & WEB_NOUNS else "phone" if words & PHONE_NOUNS else None


def shape_of(value: str) -> str | None:
    """A value's own shape: an e-mail address, a web address or a phone number (None: none of them)."""
    value = value.strip()
    if is_date(value):
        return None  # "1992-07-06" is no phone number
    if _EMAIL.match(value):
        return "email"
    if "://" in value or value.lower().startswith(_ADDRESS_STARTS):
        return "web"
    return "phone" if _PHONE.match(value) else None


def is_date(value: str) -> bool:
    """A calendar date written out ("1992-07-06", "17 May 2004", "May 17, 2004": a month's name)."""
    m = _DATE.match(value.strip())
    return bool(m) and (m.group(1) is not None or any(w.strip(",").lower() in MONTHS for w in value.split()))


def iso_date(value: str) -> str | None:
    """A calendar day as xsd:date writes it ("4 July 2010", "July 4, 2010", "4th of July 2010",
    "2010-7-4" → "2010-07-04"); None for anything else (a year alone, a month and a year, words)."""
    value = " ".join(value.split()).strip(" .")
    if m := _ISO_DAY.match(value):
        year, month, day = int(m[1]), int(m[2]), int(m[3])
    elif m := _DAY_MONTH_YEAR.match(value):
        day, month, year = int(m[1]), MONTH_NUMBERS.get(m[2].lower(), 0), int(m[3])
    elif m := _MONTH_DAY_YEAR.match(value):
        month, day, year = MONTH_NUMBERS.get(m[1].lower(), 0), int(m[2]), int(m[3])
    else:
        return None
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        return None  # no such day ("31 April"), or no month by that name


def typed_form(p: Term, value: str) -> str:
    """The value as the property's declared datatype writes it: a day as an ISO date for a date range
    (what lets dates be compared and ordered), the one year a phrase holds for a year range; any other
    value as said."""
    ranges = {local_name(r) for r in p.ranges}
    if ranges & DAY_RANGES:
        return iso_date(value) or value
    if "gYear" in ranges and not is_date(value) and len(years := _YEAR_SAID.findall(value)) == 1:
        return years[0]  # "Open since 1907" states the year 1907
    return value


def shaped_part(value: str) -> tuple[str, str] | None:
    """An e-mail address or a phone number said inside a short phrase ("By e-mail at ann@x.org", "Call the
    desk on 01632 960 111"): its shape and the address; None when the phrase is long or holds none, or
    more than one (a web address inside a phrase is more often a reference than the thing's own page:
    "OpenSees for Fire (http://…)")."""
    words = value.rstrip(".").split()
    found = [w.strip("<>()[],;") for w in words if shape_of(w.strip("<>()[],;")) == "email"]
    if len(found) == 1 and len(words) <= MAX_SHAPED_WORDS:
        return "email", found[0]
    phones, rest = phones_in(value), _PHONE_IN.sub(" ", value)
    if len(phones) == 1 and not found and len(rest.split()) <= MAX_SHAPED_WORDS and rest.strip(" .,;:"):
        return "phone", phones[0]
    return None


def phones_in(text: str) -> list[str]:
    """The phone numbers a text holds, each a run of digits dialled as one (`_dialled`)."""
    return [text[a:b] for a, b in phone_spans(text)]


def phone_spans(text: str) -> list[tuple[int, int]]:
    """Where the text's phone numbers are (start, end), each a run of digits dialled as one (`_dialled`)."""
    out = []
    for m in _PHONE_IN.finditer(text):
        run = m.group(0)
        start = m.start() + len(run) - len(run.lstrip())
        if _dialled(run.strip()):
            out.append((start, start + len(run.strip())))
    return out


def _dialled(run: str) -> bool:
    """A run of digits inside a phrase that is a phone number on its own: a phone's shape, and dialled as
    one (a leading 0, + or bracket, or three groups or more) — not a span of years ("2008-2014"), a page
    range ("121-134"), a time ("9.00-17.00") or a book's number."""
    groups = [g for g in re.split(r"[\s().-]+", run) if g]
    dialled = run[0] in "0+" or (run[0] == "(" and ")" in run) or len(groups) >= MIN_PHONE_GROUPS
    return shape_of(run) == "phone" and dialled and not _YEAR_SPAN.fullmatch(run) and not _BRACKETED_YEAR.search(run) and \
        ("." not in run or sum(ch.isdigit() for ch in run) >= MIN_DOTTED_PHONE_DIGITS)


def amount_in(value: str) -> str | None:
    """The one sum of money a short phrase holds ("Pay £6.75 on the door", "Tickets cost $12"): its number;
    None for none, for several, for a sum with a scale word after it, or in a long phrase."""
    found = list(_MONEY.finditer(value))
    if len(found) != 1 or len(_MONEY.sub(" ", value).split()) > MAX_AMOUNT_WORDS:
        return None
    after = value[found[0].end():].split()[:1]
    if after and after[0].lower().strip(".,;") in SCALES:
        return None  # "£3 million": a quantity of its own, read whole elsewhere
    return found[0].group(1).replace(",", "") + (found[0].group(2) or "")


def is_named(p: Term) -> bool:
    """A name, title, code or label property: its value is never a list."""
    return bool(LABEL_LIKE.search(local_name(p.iri).lower().replace("_", " ")))


def named_iri(vocab: Vocab, prop: str) -> bool:
    p = vocab.by_iri.get(prop)
    return p is not None and is_named(p)


def plain_value(vocab: Vocab, prop: str) -> bool:
    """A datatype property that is neither a name nor a code: what a vague label may come to mean."""
    term = vocab.by_iri.get(prop)
    return term is not None and term.kind == "datatype" and not is_named(term)


def fits_class(vocab: Vocab, cls: str | None, prop: str) -> bool:
    """The property may be said of a thing of the class (no class yet: any property may)."""
    p = vocab.by_iri.get(prop)
    return p is not None and (cls is None or not p.domains or vocab.fit(cls, p.domains) > SUPERCLASS_FIT)


def fits_fact(vocab: Vocab, cls: str | None, f) -> bool:
    """The fact may be said on the page of a thing of the class: its property's domain fits, or for a fact the
    named thing holds to the entity (`ReadFact.reverse`), its range."""
    if not f.reverse:
        return fits_class(vocab, cls, f.prop)
    p = vocab.by_iri.get(f.prop)
    return p is not None and (cls is None or vocab.fit(cls, p.ranges) > SUPERCLASS_FIT)


def holds_on(vocab: Vocab, cls: str, f) -> bool:
    """The fact says the page's entity is of the class: its property is declared on the class or above it. A
    fact the named thing holds to the entity (`ReadFact.reverse`) says nothing of it ("Belongs to: the Department
    of X" read backwards would make a person's page a faculty's): the entity's own facts type it."""
    return not f.reverse and declared_on(vocab, cls, f.prop)


def said_of(vocab: Vocab, cls: str, f, score: float, sure: float, *, below: bool = False) -> bool:
    """A fact the named thing holds to the entity, said as a passive with its agent and its words plain
    (`score` at least `sure`), says the entity is of the property's range or above it ("Taught by: Ann Lee" on
    a course's page): a class the schema gives no property of its own is known only by what is said of it.
    Grammar must say the direction: "Belongs to: the Department of X" read backwards would make a person's
    page a faculty's. `below`: a class under the range counts too."""
    if not f.reverse or score < sure or passive_agent(f.context) is None:
        return False
    p = vocab.by_iri[f.prop]
    return any(r == cls or cls in vocab.ancestors(r) or (below and r in vocab.ancestors(cls)) for r in p.ranges)


def declared_on(vocab: Vocab, cls: str, prop: str) -> bool:
    """The property's domain is the class or above it: every thing of the class may have it."""
    p = vocab.by_iri[prop]
    return bool(p.domains) and vocab.fit(cls, p.domains) == 1.0


# a quantity as pages write one: a hedge, a currency sign, the number, a scale word, a unit of a few words
# after a space ("5G networks", "3D printing" are names, not quantities)
_NUMBERED_NAME = re.compile(r"^\d+(?:\s+[A-Z][^\W\d_]*)+$")  # a number and a capitalised name: an address
_QUANTITY = re.compile(rf"^(?:(?:{'|'.join(sorted(NUMBER_HEDGES))})\s+)?[$€£¥]?\s*(\d{{1,3}}(?:,\d{{3}})+|\d+)(\.\d+)?"
                       rf"\s*(?:({'|'.join(sorted(SCALES))})\b)?(?:\s+[^\W\d_]+(?:\s+[^\W\d_]+){{0,2}})?$",
                       re.IGNORECASE)


def quantity_number(value: str, kept_scales: set[str] = frozenset()) -> str | None:  # type: ignore[assignment]
    """The number of a quantity ("$35.5 million" → 35500000, "114 min" → 114, "about 3 beds" → 3); a scale
    word the schema counts in (`kept_scales`: "millions" in "cost, in millions of US dollars") is kept as
    written (35.5). None for anything else (a date, a phone number, a code, words)."""
    found = _QUANTITY.match(value.strip())
    if found is None or is_date(value) or shape_of(value) == "phone" or set(value.lower().split()) & MONTHS or \
            _NUMBERED_NAME.match(value.strip()):
        return None  # "26 April" is a day of a month; "89 Netmakers Row" a house on a street
    whole, part, scale = found.group(1).replace(",", ""), found.group(2) or "", (found.group(3) or "").lower()
    if not scale or SCALE_WORDS.get(scale, scale) in kept_scales:
        return whole + part
    scaled = float(whole + part) * SCALES[scale]
    return str(int(scaled)) if scaled.is_integer() else str(scaled)


def counted_scales(vocab: Vocab) -> set[str]:
    """The scale words the schema's numeric properties count in, by their names and descriptions
    ("in millions of US dollars": million)."""
    said = " ".join(f"{p.words} {p.comment}".lower() for p in vocab.properties
                    if p.kind == "datatype" and {local_name(r) for r in p.ranges} & NUMERIC_RANGES)
    return {w for w in SCALES if len(w) > 2 and re.search(rf"\b{w}s\b", said)}
