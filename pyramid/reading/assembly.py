"""A page's reading put together: its entity (the page's title), its class, the facts that fit the
class (a name, title or code once, from the segment that says it best), the sentences that state no
fact as the class's description, and the name, title and code properties from the title when the page
states none ("COMP3423 Human Computer Interaction")."""

from __future__ import annotations

import re
from dataclasses import replace

from pyramid.normalise import fold, name_key
from pyramid.reading.english import POSSESSIVES, PREDICATIVE_AS
from pyramid.reading.entity_class import EntityClassifier
from pyramid.reading.linking import DEFINING, HELD_BY_FLOOR, FactLinker
from pyramid.reading.meaning import PropertyMeaning
from pyramid.reading.page import Page, PageReading, ReadFact, Segment
from pyramid.reading.terms import LABEL_LIKE, fits_class, fits_fact, named_iri, shape_of
from pyramid.reading.values import list_items
from pyramid.vocab import Vocab, local_name

DESCRIPTION = "description"  # what the page's free text (sentences stating no fact) is, for the schema
MIN_DESCRIPTION_WORDS = 6  # fewer words left over are a caption or a stray phrase, no description
DESCRIPTION_SIMILARITY = 0.5  # a property this close to the word "description" means it
_ONE_CODE = r"[A-Za-z]{2,6}\s?\d[0-9A-Za-z]{1,6}"
# a title that opens with codes ("COMP 5570", "FSN3405/ABCT3405", "EIE621-EIE623") and then names
_LEADING_CODES = re.compile(rf"^((?:{_ONE_CODE})(?:\s*[/&,-]\s*{_ONE_CODE})*(?:/\w+)*(?:\s*\([^)]*\))?)"
                            r"(?=\s|$)\s*[-–—:|]?\s*(.*)$")

# … or ends with them in brackets ("Charting Reefs (MRN4410)")
_TRAILING_CODES = re.compile(rf"^(.+?)\s*[(\[]\s*((?:{_ONE_CODE})(?:\s*[/&,-]\s*{_ONE_CODE})*)\s*[)\]]\s*$")


NAME_WORD = "name"  # the word a property that holds a thing's name is named with ("has_name", "name")


class PageAssembler:
    """A segmented page's reading: its class chosen, then the facts that fit it."""

    def __init__(self, vocab: Vocab, meaning: PropertyMeaning, linker: FactLinker,
                 classifier: EntityClassifier) -> None:
        self.vocab, self.meaning, self.linker, self.classifier = vocab, meaning, linker, classifier

    def link(self, page: Page) -> PageReading:
        """The page's entity, its class and the facts the page states about it."""
        title = page.title
        # what the page says the entity is ("X is an assistant professor", "Type: outpatient clinic"):
        # said of its kind — never a thing it links to; a value it has (a position) maybe, but a field's only
        # under a label that plainly means that value's property ("Status: Graduate student" is no age)
        said = {n: k for n, seg in enumerate(page.segments) if (k := self.kind_said(seg, title))}
        kinds = {n: cls for n, (cls, stated) in said.items() if stated}
        options = []
        for n, seg in enumerate(page.segments):
            vague = n in kinds and seg.kind == "field"
            plainly = self.meaning.confident(seg.context) if vague else None
            for opts in self.linker.candidates(seg, title):
                kept = [(sc, f) for sc, f in opts if not (n in kinds and f.is_object or vague and f.prop != plainly)]
                if kept:
                    options.append((seg, kept))
        cls = self.classifier.entity_class(title, [o for _, o in options], [c for c, _ in said.values()],
                                           list(kinds.values()))
        # a name, title or code has one value: the segment that says it best keeps it, the others
        # take their next reading
        best_named: dict[str, float] = {}
        for _, opts in options:
            sc, f = next(((sc, f) for sc, f in opts if fits_class(self.vocab, cls, f.prop)), (0.0, None))
            if f is not None and named_iri(self.vocab, f.prop):
                best_named[f.prop] = max(best_named.get(f.prop, 0.0), sc)
        chosen: list[ReadFact] = []
        used: set[int] = set()
        for seg, opts in options:
            opts = self._defining_first(cls, opts)
            fact = next((f for sc, f in opts if fits_fact(self.vocab, cls, f) and
                         (not named_iri(self.vocab, f.prop) or sc >= best_named.get(f.prop, 0.0))), None)
            if fact is not None:
                if named_iri(self.vocab, fact.prop):
                    best_named[fact.prop] = float("inf")  # taken
                chosen.append(replace(fact, subject=title))
                used.add(seg.sentence)
        rest = [s for n, s in enumerate(page.sentences) if n not in used]
        chosen += self.description(title, cls, rest, chosen)
        chosen += self.from_title(title, cls, chosen)
        out = PageReading(title, cls, _unique(chosen))
        for f in out.facts:
            if f.is_object and f.value_class:
                out.mentions.setdefault(f.value, f.value_class)
        return out

    def _defining_first(self, cls: str | None, opts: list[tuple[float, ReadFact]]) -> list[tuple[float, ReadFact]]:
        """The options with a property that defines the entity's class (or one above it) raised by
        `DEFINING`, and one that defines only classes the entity's is not lowered by it: on a student's page
        "Modules: …" are what makes a student one — the modules taken — rather than those a tutor tutors,
        which would make them something else."""
        defines = self.vocab.defines
        if not defines:
            return opts

        def said(f: ReadFact) -> float:
            # (a fact the named thing holds to the entity defines the named thing's class: "Students: A, B" on a
            # course's page are the students taking it, not its teaching assistants)
            holder = f.value_class if f.reverse else cls
            made = defines.get(f.prop, set())
            if not holder or not made:
                return 0.0
            if made & {holder, *self.vocab.ancestors(holder)}:
                return DEFINING
            # … and one that would make it a thing of another kind (a student who heads a department would be a
            # chair) lowered as much
            return -DEFINING if not any(self.vocab.compatible(c, holder) for c in made) else 0.0
        scored = [(sc + said(f), sc, f) for sc, f in opts]
        # a fact the named thing holds, lowered below what its words needed to be read at all, is not read
        return [(sc, f) for adjusted, sc, f in sorted(scored, key=lambda x: -x[0])
                if not f.reverse or adjusted >= HELD_BY_FLOOR]

    def kind_said(self, seg: Segment, title: str = "") -> tuple[str, bool] | None:
        """The class a segment says the entity is, and whether it states it: a copula's complement or a
        predicative "as" whose head word is a class's ("is an assistant professor", "works as a nurse"),
        a field's value that is a class's name word for word ("Type: outpatient clinic"), a field naming a
        class over the page's own name ("Course: Organic Chemistry") state it; a line of a card or a heading
        that is a class's word ("## Faculty") only hints at it."""
        words = self.linker.words
        if seg.value.split()[:1] and seg.value.split()[0].lower() in POSSESSIVES:
            return None  # "its lead clinician": a role held in the entity, said of someone else
        if seg.kind == "field" and title and name_key(seg.value) == name_key(title) and \
                (cls := words.named_exactly(seg.context)):
            return cls, True
        stated = seg.kind == "field" or seg.complement or seg.context.split()[-1:] == [PREDICATIVE_AS]
        if seg.kind == "prose" and (seg.context == seg.value or stated):
            cls = words.kind_said(seg.value) or words.named_exactly(seg.value)
        else:
            # a field's value, or one item of it ("Year: Undergraduate, second-year"), a class's name — with a
            # word of its label too ("Student type: Undergraduate")
            items = [seg.value] + (list_items(seg.value) if seg.kind == "field" else [])
            cls = next((c for item in items for c in (words.named_exactly(item), words.named_with_label(
                seg.context, item) if seg.kind == "field" else None) if c), None)
        return (cls, stated) if cls else None

    def description(self, title: str, cls: str | None, rest: list[str], facts: list[ReadFact]) -> list[ReadFact]:
        """The sentences that state no fact, together, for the class's property that means a
        description — when the schema has one and the page did not fill it."""
        text = " ".join(rest)
        if cls is None or len(text.split()) < MIN_DESCRIPTION_WORDS:
            return []
        sims = self.meaning.sims(DESCRIPTION)
        have = {f.prop for f in facts}
        best = max(((float(sims[j]), p) for j, p in enumerate(self.meaning.props)
                    if p.kind == "datatype" and fits_class(self.vocab, cls, p.iri) and p.domains), default=(0.0, None),
                   key=lambda x: x[0])
        if best[1] is None or best[0] < DESCRIPTION_SIMILARITY or best[1].iri in have:
            return []
        return [ReadFact(title, best[1].iri, text, False, "", DESCRIPTION)]

    def from_title(self, title: str, cls: str | None, facts: list[ReadFact]) -> list[ReadFact]:
        """The class's name / title / code properties from the title when the page states none."""
        if cls is None:
            return []
        have = {f.prop for f in facts}
        out = []
        lead = _LEADING_CODES.match(title)
        trail = None if lead else _TRAILING_CODES.match(title)
        code, rest = (lead.group(1).strip(), lead.group(2).strip()) if lead else \
            (trail.group(2).strip(), trail.group(1).strip()) if trail else ("", title)
        named = []
        for p in self.vocab.properties_of(cls, "datatype"):
            words = local_name(p.iri).lower().replace("_", " ")
            if p.iri in have or not LABEL_LIKE.search(words):
                continue
            if words.endswith("code"):
                if code and self.vocab.fit(cls, p.domains) == 1.0:  # "AAE3103/IC381 …": the codes as the title writes them
                    out.append(ReadFact(title, p.iri, code, False, "", "code"))
            else:
                named.append((p, words))
        # the title is the thing's name: one property takes it — one named a name where there is one (a person's
        # "title" is no name of theirs), else those declared on the class
        plain = [(p, w) for p, w in named if NAME_WORD in w.split()]
        declared = [(p, w) for p, w in named if self.vocab.fit(cls, p.domains) == 1.0]
        for p, words in (plain[:1] if plain and (declared or len(plain) == len(named)) else declared):
            out.append(ReadFact(title, p.iri, rest or title, False, "", words))
        return out


def _unique(facts: list[ReadFact]) -> list[ReadFact]:
    """Each fact once: the first one met of a property and a value."""
    seen, out = set(), []
    for f in facts:
        key = (f.prop, fold(f.value))
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def drop_contradicted(vocab: Vocab, readings: list[PageReading]) -> list[PageReading]:
    """A link one page states that the other end's own page contradicts is dropped: "X directed F" on X's
    page, where F's page names its directors (the property's declared inverse), X not among them, and
    names X in another role (its cast). The page about F says it plainly; X's page said it in passing."""
    by_name = {name_key(r.entity): r for r in readings}

    def contradicted(me: str, f: ReadFact) -> bool:
        other = by_name.get(name_key(f.value)) if f.is_object and not f.reverse and f.prop in vocab.inverses else None
        if other is None or name_key(other.entity) == me:
            return False
        links = [(g.prop, name_key(g.value)) for g in other.facts if g.is_object]
        said = {v for p, v in links if p in vocab.inverses[f.prop]}
        return bool(said) and me not in said and me in {v for _, v in links}

    out = []
    for r in readings:
        kept = [f for f in r.facts if not contradicted(name_key(r.entity), f)]
        out.append(r if len(kept) == len(r.facts) else replace(r, facts=kept))
    return out


SHARED_ADDRESS_PAGES = 5  # an address given to this many things, of more than one class, is the site's own


def drop_shared_addresses(readings: list[PageReading]) -> list[PageReading]:
    """What the corpus says of every page is no page's fact: an e-mail, web address or phone number stated
    for many things of different classes (a press office's line under every news release, a site's
    switchboard in every footer) is the site's, and none of theirs."""
    owners: dict[str, set[tuple[str, str | None]]] = {}
    for r in readings:
        for f in r.facts:
            if not f.is_object and shape_of(f.value) is not None:
                owners.setdefault(fold(f.value), set()).add((name_key(r.entity), r.cls))
    shared = {v for v, who in owners.items()
              if len(who) >= SHARED_ADDRESS_PAGES and len({c for _, c in who}) > 1}
    if not shared:
        return readings
    return [replace(r, facts=[f for f in r.facts if f.is_object or fold(f.value) not in shared]) for r in readings]

