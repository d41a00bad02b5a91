"""The pages a person opens in a browser, beside the curator's review page (serving.review):

    GET /         the ask page: a question in; the answer, the layer that answered, its evidence (the plan and
                  its SPARQL with the rows, triples with their chunks, chunks and cited sentences with their
                  documents) and the trace of every step
    GET /query    a SPARQL editor: the schema's prefixes filled in, its classes and properties to click in,
                  syntax help, results as a table (through /sparql: the same read-only check)
    GET /schema   the ontology's classes and properties as JSON (what the editor lists)

The pages are static HTML (serving/ask.html, serving/query.html, their shared serving/pages.css) calling
the JSON API; they set every
answer's text as text, never as markup.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from serving.state import Server, schema_summary


def _page(name: str) -> str:
    return resources.files("serving").joinpath(name).read_text(encoding="utf-8")


def add_pages(app: FastAPI, server: Server) -> None:
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def ask_page() -> str:
        return _page("ask.html")

    @app.get("/query", response_class=HTMLResponse, include_in_schema=False)
    def query_page() -> str:
        return _page("query.html")

    @app.get("/pages.css", include_in_schema=False)
    def style() -> Response:
        return Response(_page("pages.css"), media_type="text/css")

    @app.get("/schema")
    def schema() -> dict[str, Any]:
        with server.lock:
            return schema_summary(server.session)
