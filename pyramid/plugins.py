"""Named components of one kind, built-ins registered the way a plug-in is.

    REGISTRY = Registry("KG extraction mode", setting="kg.mode", param="kg_mode",
                        builtins=("pyramid.kg.extractors.cascade", ...), group="polyrag.triple_extractors")
    REGISTRY.names()           # every registered name (built-ins and plug-ins), in registration order
    REGISTRY.get("cascade")    # its entry; an unknown name raises ConfigError naming the choices
    REGISTRY.register(Entry("mine", build=MyExtractor, description="..."))

A module that provides components has a `register(registry)` function. The built-ins are such
modules, listed by name and imported on the registry's first use; a third-party package adds its own
through the entry-point group (`[project.entry-points."polyrag.triple_extractors"] mine =
"my_pkg.module:register"`); a test or a script may call `register` itself. So adding a component is
one module and its registration, and nothing that chooses among them changes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pyramid.errors import ConfigError, Hint

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered component: its name (the setting's value), how to build it, what it is."""

    name: str
    build: Callable[..., T]
    description: str = ""
    options: dict[str, Any] | None = None   # kind-specific facts the chooser reads (e.g. reads_pages)

    def option(self, key: str, default: Any = None) -> Any:
        return (self.options or {}).get(key, default)


class Registry(Generic[T]):
    def __init__(self, kind: str, *, setting: str, builtins: tuple[str, ...], group: str,
                 param: str | None = None) -> None:
        self.kind, self.setting, self.param, self.group = kind, setting, param, group
        self._builtins = builtins
        self._entries: dict[str, Entry[T]] = {}
        self._loaded = False

    def register(self, entry: Entry[T]) -> None:
        """Add (or replace) a component under its name."""
        self._entries[entry.name] = entry

    def unregister(self, name: str) -> None:
        self._entries.pop(name, None)

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True  # first: a module's register() may look the registry up
        for module in self._builtins:
            importlib.import_module(module).register(self)
        from importlib import metadata

        for ep in metadata.entry_points(group=self.group):
            ep.load()(self)

    def names(self) -> list[str]:
        self._load()
        return list(self._entries)

    def __iter__(self) -> Iterator[Entry[T]]:
        self._load()
        return iter(list(self._entries.values()))

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._entries

    def get(self, name: str, *, extra: tuple[str, ...] = ()) -> Entry[T]:
        """The entry called `name`; an unknown one stops with the choices (`extra`: names the caller
        resolves itself, such as "auto", listed with them)."""
        self._load()
        entry = self._entries.get(name)
        if entry is None:
            choices = ", ".join([*extra, *self._entries])
            if self.param is None:  # a setting only: the choices go in the message
                raise ConfigError(f"unknown {self.kind} '{name}' ({self.setting}: {choices})")
            raise ConfigError(f"unknown {self.kind} '{name}' ({self.setting})", hint=Hint(param=self.param, values=choices))
        return entry
