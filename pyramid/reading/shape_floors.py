"""What a value's shape says whatever its words mean: the least score each schema property gets from a
value that is a number, a year, a date, a phone number or an address (pyramid.reading.linking adds these
to the meaning of the value's context)."""

from __future__ import annotations

from functools import cached_property

import numpy as np

from pyramid.reading.meaning import CONFIDENT, MIN_SIMILARITY, PropertyMeaning
from pyramid.reading.terms import NUMERIC_RANGES, TEMPORAL_RANGES, is_date, shape_named, shape_of, shaped_part
from pyramid.reading.values import NUMBER, YEAR
from pyramid.vocab import local_name

YEAR_RANGES = {"gYear"}
YEAR_MARGIN = 0.01  # a year goes to a property of years before a count's, where nothing else says


class ShapeFloors:
    """Per property, the floor a value's shape gives it (one array per shape, built once per schema)."""

    def __init__(self, meaning: PropertyMeaning) -> None:
        self.meaning = meaning

    def by_shape(self, item: str, sims: np.ndarray, aside: bool) -> tuple[np.ndarray, str]:
        """A number or a date goes to a property declared numeric or a date; a phone number, or an address
        inside a phrase ("By e-mail at ann@x.org"), an e-mail or web address, to the property named for
        its shape (which then takes the address alone)."""
        if NUMBER.match(item.strip()) and not aside:
            sims = np.maximum(sims, self.numeric)
            if YEAR.match(item.strip()):  # "open since 1924": a year, before a count, to a property of years
                sims = np.maximum(sims, self._year)
        if is_date(item):
            sims = np.maximum(sims, self._date)
        elif (shape := shape_of(item)) is not None:  # a phone number, an e-mail or web address, whole
            sims = self._shaped(sims, shape)
        shaped = shaped_part(item)
        if shaped is not None:
            sims, item = self._shaped(sims, shaped[0]), shaped[1]
        return sims, item

    def _shaped(self, sims: np.ndarray, shape: str) -> np.ndarray:
        """A value of this shape states a property named for the shape, where the schema has one: "her office
        line is (555) 342-5958" is a telephone number, not an office's number."""
        floor = np.array([CONFIDENT if p.kind == "datatype" and shape_named(p) == shape else 0.0
                          for p in self.meaning.props])
        return np.where(floor > 0, np.maximum(sims, floor), 0.0) if floor.any() else sims

    def _ranged(self, ranges: set[str], floor: float) -> np.ndarray:
        return np.array([floor if p.kind == "datatype" and {local_name(r) for r in p.ranges} & ranges else 0.0
                         for p in self.meaning.props])

    @cached_property
    def numeric(self) -> np.ndarray:
        return self._ranged(NUMERIC_RANGES, MIN_SIMILARITY)

    @cached_property
    def _date(self) -> np.ndarray:
        return self._ranged(TEMPORAL_RANGES, MIN_SIMILARITY)

    @cached_property
    def _year(self) -> np.ndarray:
        return self._ranged(YEAR_RANGES, MIN_SIMILARITY + YEAR_MARGIN)
