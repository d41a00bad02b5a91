"""What a vague field label means, learnt from what its values are elsewhere once every page is linked.

A label too vague for its words to say a property ("Post", "Capacity") is read by what it holds: the
property most of its values are given on other pages, under other labels or in sentences; a vague
column that no one property explains ("Education: PhD; Lund University") is read item by item, each as
the values most like it are given elsewhere. What is learnt goes to the corpus lessons (`label_means`,
`value_means`), which the linking reads."""

from __future__ import annotations

from collections import Counter

import numpy as np

from pyramid.normalise import fold
from pyramid.reading.lessons import MIN_SHAPE_EXAMPLES, CorpusLessons
from pyramid.reading.meaning import PropertyMeaning
from pyramid.reading.page import Page, PageReading
from pyramid.reading.terms import fits_class, plain_value
from pyramid.reading.values import MAX_ITEM_WORDS, NUMBER
from pyramid.vocab import Vocab

LABEL_SHARE = 0.5         # a vague label more than this share of whose values are one property's elsewhere means it
NEAR_SHARE = 0.4          # … or this share of whose items are like that property's values (topics said nowhere find none)
NEIGHBOUR = 0.6           # values this close (cosine) to an item under a vague label, given a property elsewhere, …
NEIGHBOURS = 5            # … among its this many closest, vote for what the item is
ITEM_AGREE = 0.8          # an item whose votes agree this much is read as they say
MAX_VOTERS = 2000         # values per property that may vote (the first met): enough to place most items


class VagueLabelLessons:
    """Learns what vague field labels, and the items under them, mean (see the module's docstring)."""

    def __init__(self, vocab: Vocab, meaning: PropertyMeaning, lessons: CorpusLessons) -> None:
        self.vocab, self.meaning, self.lessons = vocab, meaning, lessons

    def learn_label_meanings(self, pages: list[Page], readings: list[PageReading]) -> bool:
        """A field label too vague to say a property ("Post: Professor") is read by what it holds. A
        column more than half (`LABEL_SHARE`) of whose values other labels and sentences give one
        property, word for word, means that property (`label_means`) — a column of one site states one
        thing, whatever MiniLM makes of its header. Else each item votes as the values said plainly
        (under plain labels, in sentences) for the properties its pages' class has are given: the same
        value when it is said there, else its `NEIGHBOURS` closest at cosine `NEIGHBOUR` or more (topics
        said nowhere word for word are like topics said elsewhere; a course's title is like a topic but no
        property of a person). A column most of whose votes are for what it is read as keeps that for
        all its items. Votes that near are weaker: a column means their property when a good part of it
        (`NEAR_SHARE`) votes and hardly any vote another way (`ITEM_AGREE`); a column of two kinds
        (degrees and the universities that gave them) keeps its reading, and each item whose own votes
        agree is read as they say (`value_means`). A label with fewer than `MIN_SHAPE_EXAMPLES` values is
        no column (a name before one value); a column whose values were linked as things keeps its link
        (a department caught in a noisy list of roles elsewhere is no role of the department column);
        every property votes, but a label or an item comes to mean only a datatype property, neither a
        name nor a code. True when anything was learnt."""
        given: dict[str, Counter] = {}          # folded value → (folded context, property) → times
        under: dict[str, list[str]] = {}        # vague field label → the folded values under it
        classes: dict[str, Counter] = {}        # vague field label → the classes of the pages it is on
        now: dict[str, Counter] = {}            # vague field label → the properties its values were given
        plainly: dict[str, Counter] = {}        # folded value → property → times a plain label or a sentence gave it
        surface: dict[str, str] = {}            # folded value → as a page wrote it (its vector may be made already)
        for page, reading in zip(pages, readings):
            if reading.cls is None:
                continue
            vague = set()
            for seg in page.segments:
                if seg.kind == "field" and not seg.number and self.meaning.vague(seg.context):
                    for item in self.lessons.items_of(seg):
                        under.setdefault(fold(seg.context), []).append(fold(item))
                        surface.setdefault(fold(item), item)
                    classes.setdefault(fold(seg.context), Counter())[reading.cls] += 1
                    vague.add(seg.context)
            for f in reading.facts:  # every property counts, so that a column of things stays theirs
                given.setdefault(fold(f.value), Counter())[(fold(f.context), f.prop)] += 1
                now.setdefault(fold(f.context), Counter())[f.prop] += 1
                if f.context not in vague:
                    plainly.setdefault(fold(f.value), Counter())[f.prop] += 1
                    surface.setdefault(fold(f.value), f.value)
        learnt, unsettled = False, {}
        for label, values in under.items():
            current = next(iter(now.get(label, Counter()).most_common(1)), (None, 0))[0]
            held = self.vocab.by_iri.get(current or "")
            if (held is not None and held.kind == "object") or len(values) < MIN_SHAPE_EXAMPLES:
                continue  # a column of things links them, whatever else their names were given
            votes: Counter = Counter()
            for value in values:
                elsewhere = Counter()
                for (other, prop), n in given.get(value, {}).items():
                    if other != label:
                        elsewhere[prop] += n
                if elsewhere:
                    votes[elsewhere.most_common(1)[0][0]] += 1
            prop, n = next(iter(votes.most_common(1)), (None, 0))
            if prop is not None and plain_value(self.vocab, prop) and n > LABEL_SHARE * len(values):
                # kept even where the column already reads so: a later lesson may move its reading, and
                # then its votes (near the share) may no longer settle it
                if self.lessons.label_means.get(label) != prop:
                    self.lessons.label_means[label] = prop
                    learnt = learnt or current != prop
            else:
                unsettled[label] = (classes[label].most_common(1)[0][0], values, current)
        for label, voted in self._item_votes(unsettled, plainly, surface).items():
            _, values, current = unsettled[label]
            votes = Counter(voted[v].most_common(1)[0][0] for v in values if v in voted)
            prop, n = next(iter(votes.most_common(1)), (None, 0))
            if prop is not None and plain_value(self.vocab, prop) and n >= NEAR_SHARE * len(values) and \
                    n >= ITEM_AGREE * sum(votes.values()):
                self.lessons.label_means[label] = prop  # said plainly, for every item (read one by one they scatter)
                learnt = True
                continue
            if prop is None or prop == current:
                continue  # most of what it holds is what it is read as: a few odd items stay with the column
            for item, item_votes in voted.items():
                prop, n = item_votes.most_common(1)[0]
                if plain_value(self.vocab, prop) and n >= ITEM_AGREE * sum(item_votes.values()):
                    self.lessons.value_means[(label, item)] = prop
                    learnt = True
        return learnt

    def _item_votes(self, columns: dict[str, tuple[str, list[str], str | None]], plainly: dict[str, Counter],
                    surface: dict[str, str]) -> dict[str, dict[str, Counter]]:
        """Per vague label (its pages' class, its folded items, …): per item that values said plainly
        speak for, property → votes, among the properties the class has."""
        voters, owners, per_prop = [], [], Counter()
        for value, props in plainly.items():
            prop = props.most_common(1)[0][0]
            if per_prop[prop] < MAX_VOTERS and not NUMBER.match(value) and len(value.split()) <= MAX_ITEM_WORDS:
                voters.append(value)
                owners.append(prop)
                per_prop[prop] += 1
        unsaid = sorted({v for _, values, _ in columns.values() for v in values
                         if v not in plainly and not NUMBER.match(v) and len(v.split()) <= MAX_ITEM_WORDS})
        vectors = self.meaning.vectors
        near = vectors([surface[v] for v in unsaid]) @ vectors([surface[v] for v in voters]).T \
            if unsaid and voters else np.zeros((len(unsaid), 0))
        row = {v: i for i, v in enumerate(unsaid)}
        out: dict[str, dict[str, Counter]] = {}
        for label, (cls, values, _) in columns.items():
            fits = {p: fits_class(self.vocab, cls, p)
                    for p in per_prop.keys() | {p for v in values for p in plainly.get(v, ())}}
            mask = np.array([fits[p] for p in owners], dtype=bool)
            voted = out[label] = {}
            for v in dict.fromkeys(values):
                votes = Counter({p: n for p, n in plainly.get(v, {}).items() if fits[p]})
                if not votes and v in row and mask.any():
                    sims = np.where(mask, near[row[v]], -1.0)
                    top = np.argpartition(-sims, min(NEIGHBOURS, len(sims) - 1))[:NEIGHBOURS]
                    votes = Counter(owners[k] for k in top if sims[k] >= NEIGHBOUR)
                if votes:
                    voted[v] = votes
        return out
