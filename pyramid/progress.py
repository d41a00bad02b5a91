"""Progress reporting through one notifier object, so library code never prints.

The CLI passes a `RichProgress` (rich bars on stderr); library callers and tests get `NullProgress`.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def task(self, description: str, total: int | None) -> Task: ...
    def note(self, message: str) -> None: ...


class Task(Protocol):
    def advance(self, n: int = 1) -> None: ...
    def done(self) -> None: ...


class _NullTask:
    def advance(self, n: int = 1) -> None:
        pass

    def done(self) -> None:
        pass


class NullProgress:
    def __init__(self) -> None:
        self.notes: list[str] = []

    def task(self, description: str, total: int | None) -> Task:
        return _NullTask()

    def note(self, message: str) -> None:
        self.notes.append(message)


class _RichTask:
    def __init__(self, bar, task_id) -> None:
        self.bar, self.id = bar, task_id

    def advance(self, n: int = 1) -> None:
        self.bar.advance(self.id, n)

    def done(self) -> None:
        for task in self.bar.tasks:
            if task.id == self.id and task.total is not None:
                self.bar.update(self.id, completed=task.total)


class RichProgress:
    """One live rich display for a whole command; tasks appear as rows."""

    def __init__(self, console=None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self.console = console or Console(stderr=True)
        self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                       TimeElapsedColumn(), TimeRemainingColumn(), console=self.console, transient=False)

    def __enter__(self) -> RichProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)

    def task(self, description: str, total: int | None) -> Task:
        return _RichTask(self.bar, self.bar.add_task(description, total=total))

    def note(self, message: str) -> None:
        self.bar.console.print(message)
