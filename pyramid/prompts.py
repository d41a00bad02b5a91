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


@cache
def load_prompt(package: str, name: str) -> Prompt:
    """Load `<package>/prompts/<name>.md`."""
    raw = resources.files(package).joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")
    return parse_prompt(f"{package}.{name}", raw)
