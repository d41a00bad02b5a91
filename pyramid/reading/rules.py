"""Deterministic reading of text for extraction, shared by the KG (f_kg) and ontology (f_ins) extractors.

    text → sentences (abbreviation-aware) → f_par without a model: pronouns and "the department /
    the subject / it" replaced by the document's main entity → tokens → candidate spans (names,
    course codes, numbers with their unit noun) → clauses (subject | verb group | objects) →
    rule triples (subject, relation written in the sentence, object)

Nothing here calls a model. The rules are English-surface heuristics (no part-of-speech tagger is
installed): a verb is an auxiliary, a verb of a small lexicon, or a word ending in -s/-ed right after
the subject; an object is a name span or, when the predicate names none, each item of the list that
follows the verb group. `polyrag bench extraction` measures what they get right.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pyramid import normalise
from pyramid.reading import english, names, sentences
from pyramid.reading.english import (
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    IRREGULAR,
    PREPOSITIONS,
    RELATIVES,
    TITLES,
    VERBS,
)
from pyramid.reading.names import MainEntity, Span, _join, fold_words_set, main_entity, name_spans, resolve
from pyramid.reading.sentences import Token, split_sentences, tokenize


@dataclass(frozen=True)
class RuleTriple:
    subject: str
    relation: str
    object: str
    sentence: int = 0      # index of the sentence in its chunk


def _strip(tokens: list[Token]) -> list[Token]:
    """Leading determiners and trailing punctuation/determiners/conjunctions off a phrase."""
    a, b = 0, len(tokens)
    while a < b and (tokens[a].low in DETERMINERS | CONJUNCTIONS | {"'s", "’s"} or not tokens[a].word):
        a += 1
    while b > a and (tokens[b - 1].low in DETERMINERS | CONJUNCTIONS | PREPOSITIONS or not tokens[b - 1].word):
        b -= 1
    return tokens[a:b]


def _text(tokens: list[Token]) -> str:
    return _join(tokens)


def _participle(low: str) -> bool:
    return low in IRREGULAR or (low.endswith("ed") and low in VERBS)


def _verb_start(tokens: list[Token], lo: int, hi: int, spans: list[Span], first_ok: bool = False) -> int | None:
    """Index of the first verb of the clause tokens[lo:hi] (after its subject), or None.

    A verb is an auxiliary, a lexicon verb, or a word ending in -s/-ed right after a content word
    (not followed by another verb: 'research interests are'). A lexicon base form counts after a
    capitalised word or a plural ('Students learn'); a participle right after a noun with a copula
    later is a reduced relative ('the language spoken in Canada is'); 'to reach' is no verb."""
    in_span = {k for s in spans for k in range(s.start, s.end)}
    copula_at = [i for i in range(lo, hi) if tokens[i].low in COPULAS]
    for i in range(lo, hi):
        t = tokens[i]
        if i in in_span or not t.word or (t.cap and i > lo):
            continue
        low = t.low
        prev = tokens[i - 1] if i > lo else None
        nxt = tokens[i + 1] if i + 1 < hi else None
        if prev is not None and prev.low == "to":
            continue
        if i == lo and not first_ok and low not in AUXILIARIES:
            continue  # a clause's first word is its subject ('Booking is free', 'Topics include')
        if prev is not None and prev.word and _participle(low) and low not in COPULAS and \
                any(c > i for c in copula_at) and prev.low not in AUXILIARIES:
            continue
        if low in AUXILIARIES:
            return i
        if low in VERBS:
            base_form = not low.endswith(("s", "ed", "ing")) and low not in IRREGULAR
            after_subject = i == lo or not base_form or (prev is not None and prev.word and (
                prev.cap or prev.low.endswith("s") or prev.low in AUXILIARIES))
            if after_subject and (prev is None or prev.low not in DETERMINERS | {"'s", "’s"}):
                return i
            continue
        if prev is not None and prev.word and prev.low not in DETERMINERS | PREPOSITIONS | CONJUNCTIONS and \
                low.endswith(("s", "ed")) and not low.endswith(("ss", "us", "is")) and len(low) > 3 and \
                not (nxt is not None and (nxt.low in AUXILIARIES or nxt.low in VERBS)):
            return i
    return None


def _verb_group_end(tokens: list[Token], v: int, hi: int) -> int:
    """After the verb: auxiliaries, adverbs (-ly), participles, particles ('was essentially built in')."""
    j = v + 1
    while j < hi:
        low = tokens[j].low
        if (low in AUXILIARIES or (low in VERBS and (low.endswith(("ed", "ing")) or low in IRREGULAR))) \
                and not tokens[j].cap or (low.endswith("ly") and len(low) > 4) or \
                low in {"not", "also", "just", "only", "still", "then", "out", "up"}:
            j += 1
            continue
        break
    while j < hi and tokens[j].low in PREPOSITIONS:
        j += 1
    return j


def _split(tokens: list[Token], boundary: Callable[[Token], bool]) -> list[list[Token]]:
    """The runs of `tokens` between boundary tokens, each stripped (`_strip`), empty ones dropped."""
    runs, cur = [], []
    for t in tokens:
        if boundary(t):
            if cur:
                runs.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        runs.append(cur)
    return [s for s in (_strip(x) for x in runs) if s]


def _list_items(tokens: list[Token]) -> list[list[Token]]:
    """'deer, capybaras, and fish' → [deer], [capybaras], [fish]; commas and 'and'/'or' split."""
    return _split(tokens, lambda t: t.text in {",", ";"} or t.low in {"and", "or"})


def _clauses(tokens: list[Token]) -> list[tuple[int, int, str]]:
    """Clause boundaries: (start, end, link) with link '' (own subject), 'and' (the previous clause's
    subject) or 'which' (the previous clause's last object: ', which studies', 'that won', ', built on')."""
    n = len(tokens)
    cuts = [(0, "")]
    # an opening phrase ('Before joining X in 2015, she worked') is not the subject
    if n and tokens[0].low in PREPOSITIONS | {"when", "while", "although", "since", "once", "because"}:
        comma = next((i for i, t in enumerate(tokens) if t.text == ","), None)
        if comma is not None:
            cuts = [(comma + 1, "")]
    for i, t in enumerate(tokens):
        if i <= cuts[0][0]:
            continue
        prev = tokens[i - 1]
        nxt = tokens[i + 1] if i + 1 < n else None
        if t.low in {"which", "who"} and prev.text == "," or \
                t.low in {"that", "who", "which"} and prev.word and nxt is not None and \
                (nxt.low in VERBS or nxt.low in AUXILIARIES) and prev.low not in VERBS | AUXILIARIES:
            cuts.append((i + 1, "which"))
        elif prev.text == "," and _participle(t.low) and nxt is not None and nxt.low in PREPOSITIONS:
            cuts.append((i, "which"))
        elif t.low in {"where", "while"} and prev.text == ",":
            cuts.append((i + 1, ""))
        elif t.low == "and" and nxt is not None and (nxt.low in VERBS or nxt.low in AUXILIARIES - {"be", "been"}) \
                and not nxt.low.endswith("ing"):
            cuts.append((i + 1, "and"))
    out = []
    for k, (start, link) in enumerate(cuts):
        end = cuts[k + 1][0] if k + 1 < len(cuts) else n
        while end > start and tokens[end - 1].low in {",", "and", "which", "who", "that", "where", "while"}:
            end -= 1
        out.append((start, end, link))
    return out


def _extend(tokens: list[Token], s: Span, hi: int) -> Span:
    """A name followed by lowercase nouns is one thing: 'Gothic architecture', 'German national team',
    'Edwardian Baroque architectural style', 'Tyrannosaurus rex'."""
    j = s.end
    while j < hi and tokens[j].word and not tokens[j].cap and tokens[j].low not in \
            DETERMINERS | PREPOSITIONS | CONJUNCTIONS | RELATIVES | AUXILIARIES and tokens[j].low not in VERBS \
            and not (tokens[j].low.endswith("ly") and len(tokens[j].low) > 4) and s.kind != "number":
        j += 1
    return s if j == s.end else Span(_join(tokens[s.start:j]), s.start, j, s.kind)


def _subject(tokens: list[Token], lo: int, v: int, spans: list[Span], copula: bool) -> tuple[str, str, str]:
    """(subject, relation prefix, owner) from the words before the verb: 'The primary diet of jaguars'
    → ('jaguars', 'primary diet', ''); "Alice Chen's research interests are" → ('Alice Chen',
    'research interests', ''); "Northbridge University's teaching observatory welcomes" → ("Northbridge
    University's teaching observatory", '', 'Northbridge University')."""
    region = tokens[lo:v]
    cut = next((k for k, t in enumerate(region) if t.text in {"(", ","}), len(region))
    region = _strip(region[:cut]) if cut else []
    if not region:
        return "", "", ""
    a = region[0].start
    first = next(k for k in range(lo, v) if tokens[k].start == a)
    last = first + len(region)
    inside = [_extend(tokens, s, last) for s in spans if s.start >= first and s.end <= last and s.kind != "number"]
    lows = [t.low for t in region]
    poss = next((k for k, w in enumerate(lows) if w in {"'s", "’s"}), None)
    if poss is not None:
        owner, thing = _text(_strip(region[:poss])), _text(_strip(region[poss + 1:]))
        if copula:
            return owner, thing, ""
        return _text(region), "", owner
    whole = [s for s in inside if s.start == first and s.end >= last]
    if whole:
        return whole[0].text, "", ""
    if inside and inside[0].start == first and all(not t.cap for t in tokens[inside[0].end:last]) and \
            "of" not in lows[inside[0].end - first:]:
        return _text(region), "", ""     # 'the first United Nations General Assembly' → the name
    if inside and inside[0].start <= first + 1 and "of" not in lows:
        return inside[0].text, "", ""
    if "of" in lows:
        k = len(lows) - 1 - lows[::-1].index("of") if inside and inside[-1].end == last else lows.index("of")
        head, rest = _strip(region[:k]), _strip(region[k + 1:])
        if head and rest:
            return _text(rest), _text(head), ""
    if inside:
        return inside[-1].text, "", ""
    return _text(region), "", ""


MAX_LEAD_WORDS = 7  # words between the verb group and a name that still make it the predicate's object


def _objects(tokens: list[Token], a: int, b: int, spans: list[Span], verb: list[Token], subj: str, prefix: str,
             k: int) -> tuple[list[RuleTriple], str]:
    """Triples of one predicate tokens[a:b] whose verb group is `verb`; returns them and the last object."""
    out: list[RuleTriple] = []
    rel0 = " ".join(x for x in (prefix, _text(verb)) if x)
    region = tokens[a:b]
    if not region:
        return out, ""
    inner = [_extend(tokens, s, b) for s in spans if s.start >= a and s.end <= b]
    # a participle phrase inside the object ('a 3-credit subject offered by the Department')
    for j in range(a + 1, b - 1):
        if _participle(tokens[j].low) and tokens[j + 1].low in PREPOSITIONS and tokens[j - 1].text != "," and \
                not any(s.start < j < s.end for s in inner):
            g = _verb_group_end(tokens, j, b)
            first, last_obj = _objects(tokens, a, j, spans, verb, subj, prefix, k)
            rest, last = _objects(tokens, g, b, spans, tokens[j:g], subj, "", k)
            return first + rest, last or last_obj
    for t in region:  # '3-credit' → (X, has credit, 3)
        if re.match(r"^\d+(\.\d+)?-[a-z]+$", t.text):
            num, unit = t.text.split("-", 1)
            out.append(RuleTriple(subj, f"has {unit}", num, k))
    commas = sum(t.text == "," for t in region)
    listy = commas >= 1 and inner and inner[0].start <= a + 1 and \
        any(t.low in {"and", "or"} for t in region) and inner[0].kind != "number"
    if inner and inner[0].start - a <= MAX_LEAD_WORDS and \
            not any(t.text in {",", ";"} for t in tokens[a:inner[0].start]) and \
            not (listy and any(not t.cap and t.word and t.low not in DETERMINERS | CONJUNCTIONS
                               for t in region[inner[0].end - a:])):
        named, last = _named_objects(tokens, a, b, inner, verb, subj, rel0, k)
        return out + named, last
    listed, last = _listed_objects(tokens, region, inner, subj, rel0, k)
    return out + listed, last


def _named_objects(tokens: list[Token], a: int, b: int, inner: list[Span], verb: list[Token], subj: str,
                   rel0: str, k: int) -> tuple[list[RuleTriple], str]:
    """The predicate's objects are names (the first within a few words of the verb group): each named
    object, a list of them, and what a preposition after them says of the last one."""
    out: list[RuleTriple] = []
    s0 = inner[0]
    pre = tokens[a:s0.start]
    lows = [t.low for t in pre]
    if "and" in lows:  # 'a professor and head of the Department' → (X, is a, professor) + (X, is head of, ...)
        cut = lows.index("and")
        left = _strip(pre[:cut])
        if left:
            art = [t for t in pre[:cut] if t.low in {"a", "an"}][:1]
            out.append(RuleTriple(subj, _text(verb + art) if verb else rel0, _text(left), k))
        pre = pre[cut + 1:]
    rel = " ".join(x for x in (rel0, _text(_trim_det(pre))) if x)
    # 'is an assistant professor in X' also says (S, is an, assistant professor)
    if verb and verb[-1].low in COPULAS and len(pre) >= 3 and pre[0].low in {"a", "an"} and \
            pre[-1].low in PREPOSITIONS | DETERMINERS:
        noun = _strip([t for t in pre[1:] if t.low not in PREPOSITIONS])
        if noun:
            out.append(RuleTriple(subj, f"{verb[-1].text} {pre[0].text}", _text(noun), k))
    objs, j = [s0], s0.end
    while j < b:  # a list of names: 'the Moon, Jupiter and Saturn' (a lone ', Paris' is a place)
        nxt = next((s for s in inner if s.start >= j), None)
        gap = [t.low for t in tokens[j:nxt.start]] if nxt else []
        if nxt is not None and gap and set(gap) <= {",", "and", "the", "or"} and \
                ("and" in gap or "or" in gap or any(x in {"and", "or"} for x in
                                                    (t.low for t in tokens[nxt.end:b]))):
            objs.append(nxt)
            j = nxt.end
            continue
        break
    for s in objs:
        out.append(RuleTriple(subj, rel, s.text, k))
    last = objs[-1].text
    if j < b:
        t = tokens[j]
        nxt = next((s for s in inner if s.start > j and s.kind != "number"), None)
        if t.low == "at" and nxt is not None and nxt.start <= j + 2:
            out.append(RuleTriple(last, "at", nxt.text, k))        # 'Faculty of Engineering at NU'
        elif t.text == "," and nxt is not None and nxt.start == j + 1 and nxt.end >= b:
            out.append(RuleTriple(last, "is in", nxt.text, k))     # 'Hôtel de Ville, Paris'
        elif nxt is not None and t.low in PREPOSITIONS - {"at"} and nxt.start - j <= 4 and \
                not any(x.text == "," for x in tokens[j:nxt.start]):
            # 'received her PhD from the University of Edinburgh', 'opened in X with funding from Y'
            # a short first object stays in the relation ('received her PhD from'); after a long
            # name only the preposition phrase does
            short = s0.kind != "name" or (len(objs) == 1 and s0.end - s0.start <= 2)
            words = _trim_det(tokens[a:nxt.start] if short else tokens[j:nxt.start])
            out.append(RuleTriple(subj, " ".join(x for x in (rel0, _text(words)) if x), nxt.text, k))
        elif t.low == "and" and j + 1 < b and tokens[j + 1].low in PREPOSITIONS and nxt is not None:
            out.append(RuleTriple(subj, f"{_text(verb[:-1] if verb and verb[-1].low in PREPOSITIONS else verb)} "
                                        f"{tokens[j + 1].text}".strip(), nxt.text, k))  # '... and at X'
    return out, last


def _listed_objects(tokens: list[Token], region: list[Token], inner: list[Span], subj: str, rel0: str,
                    k: int) -> tuple[list[RuleTriple], str]:
    """The predicate's object is the list after the verb group: each item, a thing located in a named
    place, a thing owned by a name."""
    out: list[RuleTriple] = []
    items = _list_items(region)
    for it in items:
        it = _cut_at_clause(it)
        if not it:
            continue
        # 'a teaching observatory on the roof of the Science Building' → the observatory, and where it is
        names = [s for s in inner if it[0].start <= tokens[s.start].start and tokens[s.end - 1].end <= it[-1].end]
        preps = [m for m, t in enumerate(it) if t.low in PREPOSITIONS]
        if names and preps and names[-1].kind == "name" and _before(it, preps[0], tokens, names[-1]):
            head = _strip(it[:preps[0]])
            if head:
                out.append(RuleTriple(subj, rel0, _text(head), k))
                out.append(RuleTriple(_text(head), _text(_trim_det(it[preps[0]:_index_of(it, tokens, names[-1])])),
                                      names[-1].text, k))
                continue
        # "Department of Accounting and Finance's research centre" → the centre, owned by the department
        poss = next((m for m, t in enumerate(it) if t.low in {"'s", "’s"}), None)
        if poss is not None and poss > 0:
            owner, thing = _text(_strip(it[:poss])), _text(_strip(it[poss + 1:]))
            if owner and thing:
                out.append(RuleTriple(owner, "has", thing, k))
                out.append(RuleTriple(subj, rel0, thing, k))
                continue
        out.append(RuleTriple(subj, rel0, _text(it), k))
    last_item = items[-1] if items else []
    poss = next((m for m, t in enumerate(last_item) if t.low in {"'s", "’s"}), None)
    return out, (_text(_strip(last_item[poss + 1:])) if poss is not None else _text(last_item))


def _before(item: list[Token], prep: int, tokens: list[Token], name: Span) -> bool:
    return item[prep].start < tokens[name.start].start


def _index_of(item: list[Token], tokens: list[Token], name: Span) -> int:
    return next(m for m, t in enumerate(item) if t.start >= tokens[name.start].start)


def _trim_det(tokens: list[Token]) -> list[Token]:
    b = len(tokens)
    while b > 0 and tokens[b - 1].low in DETERMINERS:
        b -= 1
    return tokens[:b]


def _cut_at_clause(tokens: list[Token]) -> list[Token]:
    """An object item ends before a verb or a relative word."""
    for i, t in enumerate(tokens):
        if i > 0 and (t.low in AUXILIARIES or t.low in RELATIVES):
            return _strip(tokens[:i])
    return tokens


def _inverted(tokens: list[Token], lo: int, v: int, g: int, hi: int, spans: list[Span], k: int) -> list[RuleTriple]:
    """'The primary language spoken in Canada is English' → (English, is the primary language spoken in,
    Canada); 'The first human-made object to reach the Moon was the Soviet Luna 2 spacecraft' →
    (Soviet Luna 2 spacecraft, was the first human-made object to reach, Moon): a description ending
    in a name, a copula, then a name."""
    region = _strip(tokens[lo:v])
    if len(region) < 3 or region[0].cap:
        return []
    first = next(i for i in range(lo, v) if tokens[i].start == region[0].start)
    last = first + len(region)
    names = [s for s in spans if first < s.start and s.end == last and s.kind in ("name", "code")]
    objs = [_extend(tokens, s, hi) for s in spans if s.start >= g and s.kind in ("name", "code")]
    if not names or not objs or objs[0].start - g > 1 or "of" in [t.low for t in tokens[first:names[0].start]][-1:]:
        return []
    desc = [t for t in _trim_det(tokens[lo:names[0].start]) if t.word or t.text == "-"]
    while desc and desc[0].low in DETERMINERS:
        desc = desc[1:]
    return [RuleTriple(objs[0].text, f"{tokens[v].text} the {_text(desc)}", names[0].text, k)]


def rule_triples(sentence: str, k: int = 0, main: MainEntity | None = None) -> list[RuleTriple]:
    """Triples a rule reading of one (already resolved) sentence gives; see the module docstring."""
    tokens = tokenize(sentence)
    spans = name_spans(tokens)
    out: list[RuleTriple] = []
    subj_main, last_obj = "", ""
    for lo, hi, link in _clauses(tokens):
        v = _verb_start(tokens, lo, hi, spans, first_ok=link in ("and", "which"))
        if v is None:
            continue
        copula = tokens[v].low in COPULAS
        g = _verb_group_end(tokens, v, hi)
        if link == "and" and v == lo:
            subj, prefix, owner = subj_main, "", ""
        elif link == "which" and v == lo:
            subj, prefix, owner = last_obj, "", ""
        else:
            if copula:
                inv = _inverted(tokens, lo, v, g, hi, spans, k)
                if inv:
                    out += inv
                    continue
            subj, prefix, owner = _subject(tokens, lo, v, spans, copula)
            # 'The prerequisite is COMP2011' in a document about COMP3010: an attribute of the main entity
            if copula and main is not None and not prefix and subj and subj[:1].islower() and \
                    len(subj.split()) <= 2 and tokens[lo].low == "the" and \
                    any(s.start <= g + 1 and s.kind in ("name", "code") for s in spans if s.start >= g):
                subj, prefix = main.name, subj
            if link == "":
                subj_main = subj
        if not subj:
            continue
        if owner:
            out.append(RuleTriple(owner, "has", subj.split("'s", 1)[-1].strip(), k))
        paren = [i for i in range(lo, v) if tokens[i].text == "("]
        if paren:  # 'East Germany (the German Democratic Republic)' → (East Germany, is, GDR)
            close = next((i for i in range(paren[0], v) if tokens[i].text == ")"), None)
            if close:
                inside = _strip(tokens[paren[0] + 1:close])
                if inside:
                    out.append(RuleTriple(subj, "is", _text(inside), k))
        appos = [s for s in spans if lo < s.start < v and tokens[s.start - 1].text == "," and s.kind == "name"]
        if appos and appos[0].text != subj:  # 'Salt Lake City, Utah, was ...' → (Salt Lake City, is in, Utah)
            out.append(RuleTriple(subj, "is in", appos[0].text, k))
        triples, last = _objects(tokens, g, hi, spans, tokens[v:g], subj, prefix, k)
        out += triples
        last_obj = last or last_obj
    seen, unique = set(), []
    for t in out:
        key = (t.subject.lower(), t.relation.lower(), t.object.lower())
        if t.subject and t.object and t.relation and key not in seen and t.subject.lower() != t.object.lower():
            seen.add(key)
            unique.append(t)
    return unique


@dataclass
class ReadSentence:
    """One sentence as the extractors see it: resolved text, candidate spans, rule triples."""

    index: int
    original: str
    text: str
    spans: list[Span]
    triples: list[RuleTriple]


def read(text: str, title: str = "") -> list[ReadSentence]:
    """Sentences of a chunk, each resolved against the document's main entity, with spans and rule triples."""
    main = main_entity(text, title)
    out = []
    for k, s in enumerate(split_sentences(text)):
        resolved = resolve(s.text, main)
        tokens = tokenize(resolved)
        spans = name_spans(tokens)
        triples = [_canonical(t, main) for t in rule_triples(resolved, k, main)]
        out.append(ReadSentence(k, s.text, resolved, spans, triples))
    return out


def _canonical(t: RuleTriple, main: MainEntity | None) -> RuleTriple:
    """A short mention of the main entity ('Dr Okafor', 'Miller') becomes its full name."""
    if main is None:
        return t
    def canon(x: str) -> str:
        words = fold_words_set(x) - TITLES
        return main.name if words and words <= main.words and len(words) < len(main.words) else x
    return RuleTriple(canon(t.subject), t.relation, canon(t.object), t.sentence)


def _phrases(tokens: list[Token]) -> list[str]:
    """Noun-phrase-like pieces: the sentence cut at verbs, prepositions, conjunctions, relatives and
    punctuation, determiners stripped ('The primary diet of jaguars includes deer' → 'primary diet',
    'jaguars', 'deer')."""
    cut = PREPOSITIONS | CONJUNCTIONS | RELATIVES | AUXILIARIES
    return [_text(x) for x in _split(tokens, lambda t: not t.word or t.low in cut or (t.low in VERBS and not t.cap))]


MAX_CANDIDATES = 12


def candidates(sentence: ReadSentence) -> list[str]:
    """What the model may name as a subject or object of this sentence (the JSON schema's enum):
    its name, code and number spans, the ends of its rule triples, then its noun-phrase pieces."""
    tokens = tokenize(sentence.text)
    spans = [_extend(tokens, s, len(tokens)).text for s in sentence.spans]
    ends = [x for t in sentence.triples for x in (t.subject, t.object)]
    out: list[str] = []
    for x in spans + ends + _phrases(tokens):
        words = fold_words_set(x) - TITLES
        # a piece of a listed candidate ('Computing' of 'Department of Computing') is no new choice
        if x and len(x) <= 80 and x not in out and not any(words <= fold_words_set(y) for y in out):
            out.append(x)
    return out[:MAX_CANDIDATES]


# Part of the KG/f_ins extractors' versions: any change to these rules (or to the normalisation they
# use) re-extracts old journals.
RULES_VERSION = hashlib.sha256(b"".join(Path(m.__file__).read_bytes() for m in (
    sentences, names, english, normalise)) + Path(__file__).read_bytes()).hexdigest()[:12]
