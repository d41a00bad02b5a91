"""Write the pages generated from the code: docs/configuration.md (every setting, from the settings'
descriptions), docs/commands.md (every command and option, from the command line's help) and
docs/index.md (the README, its links made relative to docs/).

    python docs/generate.py           (re)write both pages (`make docs` runs it before mkdocs)
    python docs/generate.py --check   exit 1 when a page is not what the code says (the docs test)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def configuration() -> str:
    from pydantic import SecretStr

    from pyramid.config import Settings

    out = ["# Configuration", "",
           "Generated from the settings' descriptions (`pyramid/config.py`) by `docs/generate.py`; do not edit.", "",
           "Every workspace has a `polyrag.toml` (`polyrag init` writes every key with its help text). An "
           "environment variable `POLYRAG_<SECTION>__<KEY>` overrides the file, e.g. `POLYRAG_LLM__PROVIDER=openai`.",
           ""]
    defaults = Settings.model_construct()
    for section, sfield in Settings.model_fields.items():
        model = getattr(defaults, section) if hasattr(defaults, section) else sfield.default_factory()
        out += [f"## [{section}]", "", "| key | default | environment variable | what it does |", "|---|---|---|---|"]
        for name, field in type(model).model_fields.items():
            value = getattr(model, name)
            shown = "(secret)" if isinstance(value, SecretStr) else ("(unset)" if value is None else f"`{value!r}`")
            env = f"`POLYRAG_{section.upper()}__{name.upper()}`"
            out.append(f"| `{name}` | {_cell(shown)} | {env} | {_cell(field.description or '')} |")
        out.append("")
    return "\n".join(out)


def commands() -> str:
    import typer

    import cli

    root = typer.main.get_command(cli.app)
    out = ["# Commands", "", "Generated from the command line's help (`cli.py`, `commands/`, `benchmarks/commands.py`) "
           "by `docs/generate.py`; do not edit. `polyrag COMMAND --help` says the same.", ""]

    def walk(cmd, path: list[str]) -> None:  # typer's own click types: duck-typed
        if hasattr(cmd, "commands"):
            for name in sorted(cmd.commands):
                walk(cmd.commands[name], [*path, name])
            return
        out.extend([f"## `polyrag {' '.join(path)}`", "", (cmd.help or "").strip(), ""])
        rows = []
        for p in cmd.params:
            if p.param_type_name == "argument":
                rows.append([f"`{(p.name or '').upper()}`", "argument", _cell(getattr(p, "help", "") or "")])
            elif p.param_type_name == "option" and not p.hidden and p.name != "help":
                rows.append([", ".join(f"`{o}`" for o in p.opts), "option", _cell(p.help or "")])
        if rows:
            out.extend(["| parameter | kind | what it does |", "|---|---|---|",
                        *[f"| {a} | {b} | {c} |" for a, b, c in rows], ""])

    walk(root, [])
    return "\n".join(out)


def index() -> str:
    """The site's home page: the README, its links made relative to docs/."""
    import re

    def link(m: re.Match) -> str:
        target = m.group(2)
        if target.startswith(("http:", "https:", "#", "mailto:")):
            return m.group(0)
        return f"{m.group(1)}({target[5:] if target.startswith('docs/') else '../' + target})"

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.sub(r"(\]|!\[[^\]]*\])\(([^)\s]+)\)", link, text).rstrip("\n")


PAGES = {"index.md": index, "configuration.md": configuration, "commands.md": commands}


def main(argv: list[str]) -> int:
    stale = []
    for name, make in PAGES.items():
        text = make() + "\n"
        path = ROOT / "docs" / name
        if "--check" in argv:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"docs out of date: {', '.join(stale)}; run `python docs/generate.py`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
