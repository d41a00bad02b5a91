"""`polyrag`, the one entry point: builds the command line from the built-in command modules
(`commands/`) and the plug-ins of the `polyrag.commands` entry-point group (the benchmarks' `bench`
group is one), then runs it. Errors print one line, with the hint in command-line words, and exit
non-zero; no traceback reaches a user for the project's own errors.
"""

from __future__ import annotations

import sys
from importlib import import_module, metadata

import typer
from rich.markup import escape

from commands import BUILTINS
from commands.common import err
from pyramid.errors import Hint, PolyragError

app = typer.Typer(help="PolyRAG: question answering over a knowledge pyramid (ontology, KG, text).",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)


def _version(value: bool) -> None:
    if value:
        try:
            version = metadata.version("polyrag")
        except metadata.PackageNotFoundError:
            version = "unknown (not installed)"
        typer.echo(f"polyrag {version}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """PolyRAG: question answering over a knowledge pyramid (ontology, KG, text)."""

for _name in BUILTINS:
    import_module(_name).register(app)
for _plugin in metadata.entry_points(group="polyrag.commands"):
    try:
        _plugin.load()(app)
    except Exception as problem:  # noqa: BLE001 - a broken plug-in must not take the built-ins down
        err.print(f"[yellow]warning:[/] plug-in {escape(_plugin.name)} not loaded: {escape(str(problem))}")

# The hint's actions and parameters in this command line's words.
ACTIONS = {
    "add_documents": "add documents with `polyrag index {ws} --docs PATH` first",
    "build_kg": "run `polyrag kg build {ws}` or `polyrag kg import {ws} FILE` first",
    "sync_kg": "run `polyrag kg sync {ws}` to rebuild the triple index",
    "migrate_kg": "run `polyrag kg migrate {ws}` to convert it to LadybugDB",
    "load_schema": "load a schema with `polyrag ontology load-schema {ws} FILE` first",
    "reason": "run `polyrag ontology reason {ws}`",
    "run_completion": "run `polyrag complete run {ws}` first",
    "accept_proposal": "accept some with `polyrag complete accept {ws} ID` first",
    "init_workspace": "create it with `polyrag init {ws}` or by indexing documents into it "
                      "(`polyrag index {ws} --docs PATH`)",
    "index_long_text": "put long texts into the corpus with `polyrag index`",
    "rebuild_kg": "run `polyrag kg build {ws}` again",
    "rerun_completion": "run `polyrag complete run {ws}` again",
    "rename_proposal": "accept it under a new name with `polyrag complete accept {ws} ID --name NEW_NAME`",
    "fix_proposals": ("fix the edit, or delete the file to start over without its decisions (every `polyrag "
                      "complete` command, `run` included, refuses the file until then)"),
}


def render_hint(hint: Hint) -> str:
    parts = []
    if hint.action:
        words = ACTIONS.get(hint.action)
        # an action this table does not know yet keeps the library's words (not formatted: no {ws})
        parts.append(words.format(ws=hint.target or "WS") if words else str(Hint(action=hint.action)))
    if hint.param:
        flag = "--" + hint.param.replace("_", "-")
        parts.append(f"pass {flag}" + (f" {hint.values}" if hint.values else ""))
    return "; ".join(parts)


def main() -> None:
    try:
        app()
    except PolyragError as e:
        text = e.message + (f" ({render_hint(e.hint)})" if e.hint else "")
        err.print("[red]error:[/] " + escape(text), highlight=False, soft_wrap=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        err.print("interrupted; an unfinished build is rolled back, the extraction work it did is kept and the "
                  "next run resumes from it")
        sys.exit(130)


if __name__ == "__main__":
    main()
