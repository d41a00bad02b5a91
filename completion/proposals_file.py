"""The proposals file: one YAML document a curator can read and edit, validated on every read.

Layout (WS/completion/proposals.yaml)::

    run: {...}            # when and how the proposals were made (informational)
    classes: [...]        # classes a domain may name (checked on accept and apply)
    proposals: [...]      # ranked; a curator may edit name, label, domain, range, status, why
    covered: [...]        # clusters that only reword existing attributes (not proposals)

An edited file that no longer parses, or whose fields fail validation, is refused with the line
of the problem; nothing is written in that case.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field, ValidationError

from completion.proposals import Proposal
from pyramid.errors import Hint, InputError
from pyramid.workspace import atomic_write_text

HEADER = """\
# PolyRAG completion proposals.
# Decide with `polyrag complete accept WS ID [--name N] [--domain C]` / `polyrag complete reject WS ID
# [--why TEXT]`, or edit this file: `status` (proposed | accepted | rejected), `name`, `label`,
# `domain`, `range`. Then `polyrag complete apply WORKSPACE` adds the accepted terms.
"""

# Every step refuses a broken file, a new run too: it would drop the decisions in it. So the hint is
# to fix or delete the file, never to re-run.
FIX = Hint(action="fix_proposals")


class ProposalsDoc(BaseModel):
    run: dict[str, Any] = Field(default_factory=dict)
    classes: list[str] = Field(default_factory=list)
    proposals: list[Proposal] = Field(default_factory=list)
    covered: list[Proposal] = Field(default_factory=list)

    def find(self, pid: str) -> Proposal | None:
        want = pid.strip().upper()
        return next((p for p in self.proposals if p.id.upper() == want), None)


def _node_line(root: yaml.Node, loc: tuple[Any, ...]) -> int:
    """1-based line of the YAML node at `loc` (a pydantic error location), as deep as it resolves."""
    node = root
    for key in loc:
        nxt = None
        if isinstance(node, yaml.MappingNode) and isinstance(key, str):
            nxt = next((v for k, v in node.value if getattr(k, "value", None) == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            nxt = node.value[key]
        if nxt is None:
            break
        node = nxt
    return node.start_mark.line + 1


def parse(text: str, path: Path) -> ProposalsDoc:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else None
        raise InputError(f"not valid YAML any more ({err.problem or err.context})", path=path,
                         line=line, hint=FIX) from None
    if not isinstance(data, dict):
        raise InputError("expected a mapping with a 'proposals' list", path=path, line=1)
    try:
        doc = ProposalsDoc.model_validate(data)
    except ValidationError as err:
        e = err.errors()[0]
        loc = tuple(e["loc"])
        field = ".".join(str(x) for x in loc)
        raise InputError(e["msg"], path=path, line=_node_line(root, loc), field=field, hint=FIX) from None
    ids = [p.id for p in doc.proposals]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        second = ids.index(dupes[0], ids.index(dupes[0]) + 1)
        raise InputError(f"proposal id {dupes[0]} appears more than once", path=path,
                         line=_node_line(root, ("proposals", second)))
    return doc


def load(path: Path, *, workspace: str | None = None) -> ProposalsDoc:
    """The proposals file at `path`; `workspace` (its root) goes into the hint when there is none yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no proposals yet", path=path,
                         hint=Hint(action="run_completion", target=workspace)) from None
    return parse(text, path)


def dump(doc: ProposalsDoc) -> str:
    data = doc.model_dump(mode="json", exclude_none=True)
    # Empty lists and default flags are noise for a reader; keep the fields a curator edits.
    for group in ("proposals", "covered"):
        for item in data[group]:
            for key in [k for k, v in item.items() if v in ([], False) and k != "status"]:
                del item[key]
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110, default_flow_style=False)
    return HEADER + body


def save(path: Path, doc: ProposalsDoc) -> None:
    atomic_write_text(path, dump(doc))
