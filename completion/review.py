"""The curator's side: where completion keeps its files, and accept / reject / show.

WS/completion/ holds
    proposals.yaml     the current proposals (see completion.proposals_file), editable
    assertions.jsonl   per proposal, every instance statement it would add (too long for the YAML)
    state.json         next proposal number, rejected proposals (never proposed again), runs
    run.json, plot.npz the last run's statistics and the data of its picture
    history/           schema versions (completion.versions)
Proposal ids (P0001, ...) are never reused across runs, so an id in a note or a log stays unique.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from completion import proposals_file
from completion.errors import ReviewError
from completion.proposals import Assertion, Proposal
from completion.proposals_file import ProposalsDoc
from pyramid.errors import Hint
from pyramid.workspace import Workspace, atomic_write_json, atomic_write_text

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


@dataclass
class Rejected:
    id: str
    medoid: str
    name: str
    domain: str | None
    why: str | None = None


@dataclass
class State:
    next_id: int = 1
    rejected: list[Rejected] = field(default_factory=list)
    runs: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(next_id=int(data.get("next_id", 1)), runs=int(data.get("runs", 0)),
                   rejected=[Rejected(**r) for r in data.get("rejected", [])])


class CompletionFiles:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.root = ws.path("completion")
        self.proposals = self.root / "proposals.yaml"
        self.assertions = self.root / "assertions.jsonl"
        self.state_path = self.root / "state.json"
        self.run = self.root / "run.json"
        self.plot = self.root / "plot.npz"
        self.history = self.root / "history"

    # -- state
    def state(self) -> State:
        if not self.state_path.exists():
            return State()
        try:
            return State.from_json(json.loads(self.state_path.read_text(encoding="utf-8")))
        except (ValueError, TypeError) as err:
            raise ReviewError(f"{self.state_path}: unreadable completion state ({err})") from None

    def save_state(self, state: State) -> None:
        atomic_write_json(self.state_path, {"next_id": state.next_id, "runs": state.runs,
                                            "rejected": [asdict(r) for r in state.rejected]})

    # -- proposals
    def load(self) -> ProposalsDoc:
        return proposals_file.load(self.proposals, workspace=str(self.ws.root))

    def save(self, doc: ProposalsDoc) -> None:
        proposals_file.save(self.proposals, doc)

    def save_assertions(self, by_id: dict[str, list[Assertion]]) -> None:
        lines = [json.dumps({"id": pid, **asdict(a)}, ensure_ascii=False)
                 for pid, items in by_id.items() for a in items]
        atomic_write_text(self.assertions, "\n".join(lines) + ("\n" if lines else ""))

    def load_assertions(self, ids: set[str]) -> dict[str, list[Assertion]]:
        out: dict[str, list[Assertion]] = {i: [] for i in ids}
        if not self.assertions.exists():
            return out
        with self.assertions.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    pid = row.pop("id")
                    if pid in out:
                        out[pid].append(Assertion(**row))
                except (ValueError, TypeError, KeyError) as err:
                    raise ReviewError(f"{self.assertions}, line {n}: unreadable ({err})",
                                      hint=Hint(action="rerun_completion", target=str(self.ws.root))) from None
        return out


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _get(doc: ProposalsDoc, pid: str) -> Proposal:
    p = doc.find(pid)
    if p is None:
        known = ", ".join(x.id for x in doc.proposals[:12]) or "none"
        more = f" … ({len(doc.proposals)} in all)" if len(doc.proposals) > 12 else ""
        raise ReviewError(f"no proposal {pid!r} in the current proposals (ids: {known}{more})")
    return p


def show(files: CompletionFiles, pid: str) -> Proposal:
    return _get(files.load(), pid)


def curator(by: str | None = None) -> str:
    """Who decides: `by`, else the login name (recorded with the decision and, on apply, in the RDF)."""
    import getpass

    if by:
        return by
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def accept(files: CompletionFiles, pid: str, *, name: str | None = None, domain: str | None = None,
           label: str | None = None, why: str | None = None, by: str | None = None) -> Proposal:
    """Mark a proposal accepted (optionally renamed, relabelled or re-domained); the schema changes on
    apply. A new name without a label brings its own label ("has_award" → "has award")."""
    with files.ws.writing("complete accept"):
        doc = files.load()
        p = _get(doc, pid)
        if p.status == "applied":
            raise ReviewError(f"proposal {p.id} was already applied to the schema")
        if name is not None:
            if not _NAME.match(name):
                raise ReviewError(f"name {name!r}: use letters, digits, _ or - (starting with a letter or _)")
            p.name = name
            p.label = label or name.replace("_", " ").replace("-", " ")
        elif label is not None:
            p.label = label
        if domain is not None:
            if p.kind == "class":
                raise ReviewError(f"proposal {p.id} is a new class; a domain applies to attributes only")
            if doc.classes and domain not in doc.classes:
                raise ReviewError(f"domain {domain!r} is not a class of the ontology "
                                  f"(classes: {', '.join(doc.classes)})")
            p.domain = domain
        p.status, p.why, p.decided, p.decided_by = "accepted", why, now(), curator(by)
        files.save(doc)
        return p


def reject(files: CompletionFiles, pid: str, *, why: str | None = None, by: str | None = None) -> Proposal:
    """Mark a proposal rejected and remember it, so later runs do not propose it again."""
    with files.ws.writing("complete reject"):
        doc = files.load()
        p = _get(doc, pid)
        if p.status == "applied":
            raise ReviewError(f"proposal {p.id} was already applied to the schema; it cannot be rejected now")
        p.status, p.why, p.decided, p.decided_by = "rejected", why, now(), curator(by)
        state = files.state()
        remember(state, p)
        files.save_state(state)
        files.save(doc)
        return p


def remember(state: State, p: Proposal) -> None:
    if p.status == "rejected" and all(r.id != p.id for r in state.rejected):
        state.rejected.append(Rejected(p.id, p.medoid, p.name, p.domain, p.why))
