"""Prompt files: versioned text next to the code that uses them.

A prompt file holds a system part and a user part, separated by lines `### system` and `### user`;
placeholders are `$name` (string.Template), so JSON braces and code in the text need no escaping.
The whole text is part of the LLM cache key, so editing a prompt is a cache miss, never a stale hit.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from string import Template

_SECTION = re.compile(r"^### (system|user)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str

    @property
    def version(self) -> str:
        return hashlib.sha256((self.system + "\x00" + self.user).encode()).hexdigest()[:12]

    def render(self, **values: object) -> list[dict[str, str]]:
        """Chat messages with the placeholders filled; a missing value raises KeyError."""
        text = {k: str(v) for k, v in values.items()}
        messages = []
        if self.system:
            messages.append({"role": "system", "content": Template(self.system).substitute(text)})
        messages.append({"role": "user", "content": Template(self.user).substitute(text)})
        return messages


def parse_prompt(name: str, raw: str) -> Prompt:
    parts = _SECTION.split(raw)
    # parts = [preamble, "system", body, "user", body] (system optional)
    sections = {parts[i]: parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}
    if "user" not in sections:
        raise ValueError(f"prompt {name}: no '### user' section")
    return Prompt(name=name, system=sections.get("system", ""), user=sections["user"])


_overrides: Path | None = None  # the open workspace's prompts/ directory


def use_workspace_prompts(directory: Path | None) -> None:
    """Prompts in `directory` (`WS/prompts/<name>.md`) win over the package's from now on; the
    session sets it when it opens a workspace."""
    global _overrides
    _overrides = Path(directory) if directory is not None else None


def load_prompt(package: str, name: str) -> Prompt:
    """`WS/prompts/<name>.md` when the open workspace has one, else `<package>/prompts/<name>.md`."""
    override = _overrides / f"{name}.md" if _overrides is not None else None
    if override is not None and override.is_file():
        return _load_file(override, override.stat().st_mtime_ns, f"{package}.{name}")
    return _load_packaged(package, name)


@cache
def _load_packaged(package: str, name: str) -> Prompt:
    raw = resources.files(package).joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")
    return parse_prompt(f"{package}.{name}", raw)


@cache
def _load_file(path: Path, mtime_ns: int, name: str) -> Prompt:
    """A workspace's prompt (cached per modification time: an edit is read at the next call)."""
    from pyramid.errors import InputError

    try:
        return parse_prompt(name, path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read the prompt ({err})", path=path) from None
    except ValueError as err:
        raise InputError(f"not a prompt file: {err} (sections start with '### system' and '### user')",
                         path=path) from None
