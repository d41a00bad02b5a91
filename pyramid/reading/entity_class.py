"""The entity's class: the one whose properties the page's facts fill most (the class a title names
breaks a tie). What the corpus teaches weighs in: the titles of pages whose facts leave no doubt of
their class are examples of its names (`learn_titles`), a page whose facts hesitate is settled by whose
names its title resembles, and a class whose every name carries its class word or a code doubts a title
without it."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from pyramid.reading.class_words import name_like, title_shapes
from pyramid.reading.lessons import SHAPE_SHARE, CorpusLessons
from pyramid.reading.linking import TYPED_LINK, FactLinker
from pyramid.reading.meaning import CONFIDENT, PropertyMeaning
from pyramid.reading.page import Page, ReadFact
from pyramid.reading.terms import declared_on, holds_on, is_named, said_of
from pyramid.vocab import Vocab

TITLE_MARGIN = 0.5        # a page's facts settle its class when the best class leads every other by this
MAX_TITLE_EXAMPLES = 300  # titles kept per class as examples of its names
MIN_TITLE_EXAMPLES = 5    # a class with fewer sure titles (or names under its labels) has none to go by
SHAPE_PENALTY = 1.0       # a title without a shape its class's names all have (`SHAPE_SHARE`) loses a typed
                          # fact's worth of votes for the class
TITLE_NEIGHBOURS = 5      # a title's resemblance to a class: mean cosine to this many closest examples
# what a copula's complement says the entity is ("X is an assistant professor"): English's own typing,
# a vote as strong as a fact typed by its ends; it settles which subclass among those the facts allow
SAID_KIND = 1.0
SURE = TYPED_LINK + CONFIDENT  # a passive said of the entity this plainly says its class (terms.said_of)
TIE = 1e-9                # votes this close to the best are a tie (float sums)


class EntityClassifier:
    """The class of a page's entity, from its candidate facts and its title."""

    def __init__(self, vocab: Vocab, meaning: PropertyMeaning, lessons: CorpusLessons, linker: FactLinker) -> None:
        self.vocab, self.meaning, self.lessons, self.linker = vocab, meaning, lessons, linker

    def entity_class(self, title: str, options: list[list[tuple[float, ReadFact]]],
                     said: Iterable[str] = (), stated: Iterable[str] = ()) -> str | None:
        """The class whose properties the page's values fill best: for each class, the sum over values
        of the best score among the facts it allows (declared on the class or above it); `said`: the
        classes the page's lines say the entity is (SAID_KIND each); `stated`: those its sentences or
        fields state, which settle it."""
        votes, below = self._fact_votes(options)
        for c in said:
            if c in votes:
                votes[c] += SAID_KIND
        head = self.linker.words.head_named(title) if name_like(title) else None
        if head in votes:  # "Golden Heron Prize": the title's last word names its kind
            votes[head] += SAID_KIND
        for c, sim in self._title_votes(title).items():
            votes[c] += sim
        for c in self.shape_doubts(title):
            if c in votes:
                votes[c] = max(0.0, votes[c] - SHAPE_PENALTY)
        for c, more in below.items():  # what is said of a course is said of a graduate course the page names
            if votes[c] > 0:
                votes[c] += more
        # the title is the entity's name: which class's name property has values like it
        like = self.lessons.value_sims(title) if self.lessons.examples else np.zeros(len(self.meaning.props))
        for j, p in enumerate(self.meaning.props):
            if is_named(p) and like[j] >= CONFIDENT:
                for c in votes:
                    if declared_on(self.vocab, c, p.iri):
                        votes[c] += float(like[j])
        # the title names the entity's class only when it reads as a name: a sentence or an address that
        # merely mentions a department ("X is a professor in the Department of …") does not
        kinds = [c for c in stated if c in votes]
        if kinds:
            # what the page says the entity is settles it, among the classes said: "X is a nurse" is no
            # ward, however many of a ward's properties the page's values could fill; "Lanternfield Films
            # is a production company" is no film, whatever its name's last word
            return max(kinds, key=lambda c: (votes[c] >= max(votes[k] for k in kinds) - TIE,
                                             len(self.vocab.ancestors(c))))
        named = self.lessons.class_named(title, as_title=True) if name_like(title) else None
        if named and named in votes and votes[named] > 0:   # the corpus names this page's entity with its class
            return named
        best = max(votes.values(), default=0.0)
        if best == 0.0:
            return named or None
        top = [c for c, n in votes.items() if n >= best - TIE]
        if named in top:
            return named
        deepest = max(top, key=lambda c: len(self.vocab.ancestors(c)))  # the most specific …
        rivals = [c for c in top if not self.vocab.compatible(c, deepest)]
        if rivals:
            # … unless the facts fit sibling classes alike (a director's or an actor's page with a birth
            # year and a birthplace only): the class they share is what the page says, not a guess
            shared = [c for c in top if c in self.vocab.ancestors(deepest)
                      and all(self.vocab.compatible(c, r) for r in rivals)]
            if shared:
                return max(shared, key=lambda c: len(self.vocab.ancestors(c)))
        return deepest

    def learn_titles(self, pages: Iterable[Page]) -> None:
        """What the names of each class look like: the titles of pages whose facts alone leave no doubt
        about their class (a course code and credits; a position and research interests). A page whose
        facts hesitate ("X is Inventor in the Department of …": works for it, or offered by it?) is
        then settled by whose names its title resembles."""
        by_class: dict[str, list[str]] = {}
        for page in pages:
            options = [o for seg in page.segments for o in self.linker.candidates(seg, page.title)]
            ranked = sorted(self._fact_votes(options)[0].items(), key=lambda x: -x[1])
            if not ranked or ranked[0][1] < 1.0:
                continue
            best, score = ranked[0]
            rival = max((v for c, v in ranked[1:] if not self.vocab.compatible(c, best)), default=0.0)
            bag = by_class.setdefault(best, [])
            if score - rival >= TITLE_MARGIN and len(bag) < MAX_TITLE_EXAMPLES:
                bag.append(page.title)
        self.lessons.title_examples = {c: ts for c, ts in by_class.items() if len(ts) >= MIN_TITLE_EXAMPLES}
        # what every name of a class carries: its class word ("Department of …"), a code ("AAE1001 …");
        # a title without it hardly names a thing of that class (`shape_doubts`). Learnt from the names
        # fields give under a label naming the class ("Home department: …", whatever words they hold) where
        # there are enough, else from these titles — which rest on the pages' typing, a mistyped page's
        # title included.
        names: dict[str, list[str]] = {c: list(ts) for c, ts in self.lessons.title_examples.items()}
        names.update({c: sorted(ns) for c, ns in self.lessons.labelled.items() if len(ns) >= MIN_TITLE_EXAMPLES})
        self.lessons.title_shapes = {c: {shape for shape, has in title_shapes(self.lessons.family_word(c), c).items()
                                         if sum(map(has, ts)) >= SHAPE_SHARE * len(ts)}
                                     for c, ts in names.items()}
        texts = [t for ts in self.lessons.title_examples.values() for t in ts]
        self.lessons.title_matrix = self.meaning.embedder.embed(texts, kind="document") if texts else None

    def shape_doubts(self, title: str) -> list[str]:
        """The classes whose every learnt name carries something this title lacks."""
        return [c for c, shapes in self.lessons.title_shapes.items()
                if any(not title_shapes(self.lessons.family_word(c), c)[shape](title) for shape in shapes)]

    def _fact_votes(self, options: list[list[tuple[float, ReadFact]]]) -> tuple[dict[str, float], dict[str, float]]:
        """Per class, what the facts it allows add up to; and per class below a range that a passive said
        of the entity votes for, what that vote would add (a graduate course is taught too: it gets the vote
        only where something else says the entity is one, see `entity_class`)."""
        votes: dict[str, float] = {}
        below: dict[str, float] = {}
        ranges = {r for opts in options for sc, f in opts if f.reverse and sc >= SURE for r in self.vocab.by_iri[f.prop].ranges}
        for c in self.vocab.classes:
            votes[c.iri] = self._vote(c.iri, options, lambda f, sc, c=c.iri: said_of(self.vocab, c, f, sc, SURE))
            if not ranges & self.vocab.ancestors(c.iri):
                continue
            down = self._vote(c.iri, options, lambda f, sc, c=c.iri: said_of(self.vocab, c, f, sc, SURE, below=True))
            if down > votes[c.iri]:
                below[c.iri] = down - votes[c.iri]
        return votes, below

    def _vote(self, cls: str, options: list[list[tuple[float, ReadFact]]], said) -> float:
        total = weak = 0.0
        for opts in options:
            # a weak datatype reading (a sentence's value, a vague label) is no evidence of the class;
            # a link to a name of no known class is weak evidence, and counts once however many there
            # are (a page of "X was appointed <journal>" sentences is no department of twenty faculties)
            # (a link is sure only when the types of both ends say it: a name of no known class linked by
            # the words alone — "the managers are A, B, C" — is weak however near the words are)
            own = [(sc, f) for sc, f in opts if holds_on(self.vocab, cls, f) or said(f, sc)]
            total += max((sc for sc, f in own if sc >= CONFIDENT and not (f.is_object and sc < TYPED_LINK)), default=0.0)
            weak = max([weak] + [sc for sc, f in own if f.is_object and sc < TYPED_LINK])
        return total + weak

    def _title_votes(self, title: str) -> dict[str, float]:
        """Per class with example titles: how much the title resembles them (mean of the closest few)."""
        if self.lessons.title_matrix is None:
            return {}
        sims = self.lessons.title_matrix @ self.meaning.value_vector(title)
        out, start = {}, 0
        for c, ts in self.lessons.title_examples.items():
            part = np.sort(sims[start:start + len(ts)])[-TITLE_NEIGHBOURS:]
            out[c] = float(part.mean())
            start += len(ts)
        return out
