"""The curator's review page (`/review`) and the JSON API under it, over the same completion
functions as `polyrag complete` (completion.review, completion.apply): the page and the command line
cannot disagree. Reading is open; every action writes, so it needs the server's token.

    GET  /review                          the page (HTML; its script calls the API below)
    GET  /review/proposals                the last run's proposals, evidence with source chunks
    GET  /review/preview                  the schema statements an apply would add now
    GET  /review/history                  schema versions
    POST /review/proposals/{id}/accept    {name?, label?, domain?, why?, by?}
    POST /review/proposals/{id}/reject    {why?, by?}
    POST /review/apply, /review/undo
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field


class Decision(BaseModel):
    name: str | None = Field(None, max_length=100)
    label: str | None = Field(None, max_length=200)
    domain: str | None = Field(None, max_length=200)
    why: str | None = Field(None, max_length=2000)
    by: str | None = Field(None, max_length=100)


class _Review:
    """What the review endpoints read through: the server's completion files, chunk texts, target."""

    def __init__(self, server) -> None:
        self.server = server

    def files(self):
        from completion.review import CompletionFiles

        return CompletionFiles(self.server.ws)

    def chunk_texts(self, ids: set[str]) -> dict[str, str]:
        if not ids or self.server.ws.generations("text").current() is None:
            return {}
        text = self.server.session.text.load()
        return {c.id: c.text for c in text.chunks if c.id in ids}

    def target(self):
        from completion.workspace_io import ontology_target

        return ontology_target(self.server.session)


def add_review(app: FastAPI, server, require_token) -> None:
    """The page and its API on `app`; `require_token` guards every action."""
    review = _Review(server)
    _add_reads(app, review)
    _add_actions(app, review, require_token)


def _add_reads(app: FastAPI, review: _Review) -> None:
    server = review.server

    @app.get("/review", response_class=HTMLResponse, include_in_schema=False)
    def page() -> str:
        return resources.files("serving").joinpath("review.html").read_text(encoding="utf-8")

    @app.get("/review/proposals")
    def proposals() -> list[dict[str, Any]]:
        from completion.proposals import display_name

        with server.lock:
            doc = review.files().load()
            chunks = review.chunk_texts({ev.chunk_id for p in doc.proposals for ev in p.evidence if ev.chunk_id})
        out = []
        for p in doc.proposals:
            d = p.model_dump(mode="json", exclude={"instance_sample"})
            d["display"] = display_name(p)
            d["evidence"] = [{**ev.model_dump(mode="json"), "chunk_text": chunks.get(ev.chunk_id or "", "")}
                             for ev in p.evidence]
            out.append(d)
        return out

    @app.get("/review/preview")
    def preview() -> dict[str, Any]:
        from completion.apply import preview_accepted

        with server.lock:
            return {"add": preview_accepted(review.files(), review.target())}

    @app.get("/review/history")
    def history() -> list[dict[str, Any]]:
        from completion.versions import SchemaHistory

        return [v.__dict__ for v in SchemaHistory(review.files().history).versions()]


def _add_actions(app: FastAPI, review: _Review, require_token) -> None:
    server = review.server

    @app.post("/review/proposals/{pid}/accept", dependencies=[Depends(require_token)])
    def accept(pid: str, d: Decision) -> dict[str, Any]:
        from completion.review import accept as do_accept

        with server.lock:
            return do_accept(review.files(), pid, name=d.name, label=d.label, domain=d.domain, why=d.why,
                             by=d.by).model_dump(mode="json")

    @app.post("/review/proposals/{pid}/reject", dependencies=[Depends(require_token)])
    def reject(pid: str, d: Decision) -> dict[str, Any]:
        from completion.review import reject as do_reject

        with server.lock:
            return do_reject(review.files(), pid, why=d.why, by=d.by).model_dump(mode="json")

    @app.post("/review/apply", dependencies=[Depends(require_token)])
    def apply() -> dict[str, Any]:
        from completion.apply import apply_accepted

        with server.lock:
            rep = apply_accepted(review.files(), review.target(), dl_check=server.ws.settings.completion.dl_check)
        return {"version": rep.version.number, "proposals": rep.proposals, "schema_statements": rep.schema_statements,
                "instance_statements": rep.instance_statements, "dl_check": rep.dl_check}

    @app.post("/review/undo", dependencies=[Depends(require_token)])
    def undo() -> dict[str, Any]:
        from completion.apply import undo_last_apply

        with server.lock:
            v = undo_last_apply(review.files(), review.target())
        return {"undone": v.number, "proposals": v.proposals}
