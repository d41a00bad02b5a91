"""The query processes of one embedded ontology store, in lanes. A user's queries (`polyrag sparql`,
`/sparql`) take one of `size` processes and wait at most `wait_s` for a free one, then are refused
(StoreBusy, a 503 under `serve`); a question's own queries (the planner's, `/ask`) have processes of
their own, so that no user's slow query makes a question wait. Each process runs one query at a time
under its own deadline (pyramid.ontology.query_worker)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

from pyramid.errors import StoreBusy
from pyramid.ontology.query_worker import QueryWorker

Lane = Literal["user", "question"]
QUESTION_PROCESSES = 1   # a question's queries run one after another (the planner waits for each)


class _Lane:
    def __init__(self, size: int) -> None:
        self.size, self.made = size, 0
        self.idle: list[QueryWorker] = []
        self.cond = threading.Condition()


class QueryPool:
    """The processes for one store directory (`where`; None before anything is written)."""

    def __init__(self, where: Path | None, make: Callable[[], QueryWorker], *, user_processes: int,
                 wait_s: float) -> None:
        self.where, self.make, self.wait_s = where, make, wait_s
        self.lanes: dict[Lane, _Lane] = {"user": _Lane(user_processes), "question": _Lane(QUESTION_PROCESSES)}
        self.closed = False

    def take(self, lane: Lane) -> QueryWorker:
        """A free process of the lane, a new one while fewer than its size exist, else the first freed
        within `wait_s`; StoreBusy after that."""
        slot = self.lanes[lane]
        deadline = time.monotonic() + self.wait_s
        with slot.cond:
            while not slot.idle and slot.made >= slot.size:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise StoreBusy(f"all {slot.size} query processes were busy for {self.wait_s:g} s "
                                    "(ontology.query_processes, ontology.queue_wait_s); try again later")
                slot.cond.wait(left)
            if slot.idle:
                return slot.idle.pop()
            slot.made += 1
        return self.make()

    def give(self, lane: Lane, worker: QueryWorker) -> None:
        slot = self.lanes[lane]
        with slot.cond:
            if self.closed:
                slot.made -= 1
                worker.close()
            else:
                slot.idle.append(worker)
            slot.cond.notify()

    @contextlib.contextmanager
    def worker(self, lane: Lane) -> Iterator[QueryWorker]:
        w = self.take(lane)
        try:
            yield w
        finally:
            self.give(lane, w)

    def start(self, lane: Lane) -> None:
        """Start one process of the lane now, without waiting for it (see OntologyStore.warm)."""
        with self.worker(lane) as w:
            w.start()

    def close(self) -> None:
        """Stop the idle processes now and the busy ones when they are given back."""
        self.closed = True
        for slot in self.lanes.values():
            with slot.cond:
                for w in slot.idle:
                    w.close()
                slot.made -= len(slot.idle)
                slot.idle.clear()
