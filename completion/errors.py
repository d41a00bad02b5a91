"""Completion's user-facing errors (printed as one line by the CLI, exit 2)."""

from __future__ import annotations

from pyramid.errors import PolyragError


class CompletionError(PolyragError):
    """Completion cannot run on this input (too few phrases, no typed subjects, ...)."""


class ReviewError(PolyragError):
    """A curator command that cannot be carried out (unknown id, nothing accepted, ...)."""
