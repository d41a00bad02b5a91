"""What we learned about OpenAI-compatible endpoints, kept across processes.

One small JSON file under the user's cache dir ($XDG_CACHE_HOME/polyrag/endpoints.json, default
~/.cache/polyrag/endpoints.json) maps (base_url, model) to the structured-output form the endpoint
accepts, so a new process does not spend failing requests finding it out again. It is only a cache:
an unreadable or corrupt file counts as empty (the next write replaces it) and a failed write is
ignored, because neither may stop a question.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

MODES = ("json_schema", "json_object")
FILE_NAME = "endpoints.json"
MAX_ENTRIES = 256  # test servers on random ports would otherwise grow the file forever


def default_path() -> Path | None:
    """The cache file, or None when no home directory can be found."""
    from pyramid.config import process_environment

    xdg = process_environment().cache_home
    if xdg and os.path.isabs(xdg):  # the XDG spec says to ignore a relative value
        return Path(xdg) / "polyrag" / FILE_NAME
    try:
        return Path.home() / ".cache" / "polyrag" / FILE_NAME
    except RuntimeError:  # no HOME and no passwd entry
        return None


def _key(base_url: str, model: str) -> str:
    # A URL holds no raw space, so "url model" splits back unambiguously.
    return f"{base_url.rstrip('/')} {model}"


def _stamp(entry: dict) -> float:
    value = entry.get("updated")
    return value if isinstance(value, (int, float)) else 0.0


class EndpointMemory:
    """The learned structured-output mode per (base_url, model), read once and written atomically."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def _read(self) -> dict[str, dict]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as err:
            log.debug("ignoring unreadable endpoint cache %s (%s)", self.path, err)
            return {}
        if not isinstance(data, dict) or not isinstance(data.get("endpoints"), dict):
            return {}
        return {k: v for k, v in data["endpoints"].items()
                if isinstance(k, str) and isinstance(v, dict) and v.get("structured_output") in MODES}

    def structured_output(self, base_url: str, model: str) -> str | None:
        return self._read().get(_key(base_url, model), {}).get("structured_output")

    def remember(self, base_url: str, model: str, mode: str) -> None:
        if self.path is None or mode not in MODES:
            return
        entries = self._read()  # re-read: another process may have learned other endpoints meanwhile
        entries[_key(base_url, model)] = {"structured_output": mode, "updated": round(time.time())}
        if len(entries) > MAX_ENTRIES:  # drop the least recently learned
            newest = sorted(entries, key=lambda k: _stamp(entries[k]), reverse=True)[:MAX_ENTRIES]
            entries = {k: entries[k] for k in newest}
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".endpoints.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"endpoints": entries}, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)  # readers see the old file or the new one, never half of one
        except OSError as err:
            log.debug("cannot write endpoint cache %s (%s)", self.path, err)
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
