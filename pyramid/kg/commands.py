"""`polyrag kg ...` and the KG benchmarks (registered by cli.py)."""

from __future__ import annotations

import typer


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add this feature's commands to the top-level app and the `bench` group."""
