"""Shared by the features' `commands.py` modules: the CLI's command groups."""

from __future__ import annotations

import typer


def command_group(app: typer.Typer, name: str, help: str) -> typer.Typer:
    """The `name` command group of `app`, created (with `help`) if no feature registered it yet, so
    features can add commands to one group whatever order they register in."""
    for info in app.registered_groups:
        if info.name == name and info.typer_instance is not None:
            return info.typer_instance
    group = typer.Typer(help=help, no_args_is_help=True)
    app.add_typer(group, name=name)
    return group
