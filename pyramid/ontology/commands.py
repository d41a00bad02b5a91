"""`polyrag ontology ...`, `polyrag sparql` and the ontology benchmarks (registered by cli.py)."""

from __future__ import annotations

import typer


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add this feature's commands to the top-level app and the `bench` group."""
