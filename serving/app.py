"""The HTTP application: the question-answering API and a SPARQL 1.1 Protocol endpoint.

    POST /ask          {question, options?, layer?, layers?, sparql?, k?} → the Answer JSON
    GET  /search       ?q=&k=&lam=   the text layer's hybrid search
    GET  /kg/search    ?q=&k=        the KG's triple search
    GET  /text2sparql  ?question=&dataset=  the TEXT2SPARQL API: {dataset, question, query} (404 for
                       another dataset than serve.dataset, by default the schema's namespace)
    GET  /stats, /health
    POST /v1/chat/completions, GET /v1/models   OpenAI-compatible chat (serving.chat)
    /mcp/              the MCP tools (serving.mcp_tools) over streamable HTTP
    GET  /, /query, /schema   the ask page, the SPARQL editor and the schema they show (serving.pages)
    GET|POST /sparql   SPARQL 1.1 Protocol: ?query= (GET), form `query=` or application/sparql-query
                       (POST); results by content negotiation (W3C JSON, XML, CSV, TSV; Turtle,
                       N-Triples, JSON-LD for CONSTRUCT/DESCRIBE)

Reads are served while another process builds: each request first picks up the last committed
generation of every layer, under a lock held for the request, so no request sees two generations.
/sparql needs no lock (each query reads one generation of the store by itself) and runs in one of
`ontology.query_processes` processes; a question's queries have their own (OntologyStore.run_query),
so a slow /sparql query makes neither /ask nor the other queries wait.
Everything here reads but the review page's actions, which `serving.auth.require_token` guards
(the token of `--token`, POLYRAG_TOKEN or serve.token); serving.limits caps bodies and time. The
project's errors become 400 (bad input, refused query), 404 (a layer not built), 503 (a store or
model that does not answer) and 504 (a timeout), each with one message: {"error": "..."}.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from pyramid.errors import InputError, PolyragError, QueryRefused, QueryTimeout, WorkspaceError
from pyramid.types import Answer, LayerName
from serving.state import Server


class AskRequest(BaseModel):
    question: str = Field(min_length=1, max_length=4000)
    options: list[str] | None = Field(None, description="MCQ/MAQ options; the answer selects those supported")
    layer: LayerName | None = Field(None, description="one layer only")
    layers: list[LayerName] | None = Field(None, description="the waterfall's layers (default query.layers)")
    sparql: Literal["plan", "raw", "auto"] | None = Field(None, description="default query.sparql")
    k: int | None = Field(None, ge=1, le=100)


# hints that mean "build this first" (pyramid.errors.Hint actions)
NOT_BUILT = {"add_documents", "build_kg", "load_schema", "init_workspace", "run_completion"}


def _status(err: PolyragError) -> int:
    from completion.errors import CompletionError, ReviewError

    if isinstance(err, QueryTimeout):
        return 504
    if isinstance(err, (ReviewError, CompletionError)):
        return 409  # a curator action that cannot be carried out in the current state
    if isinstance(err, (InputError, QueryRefused)):
        return 400
    if isinstance(err, WorkspaceError) and err.hint is not None and err.hint.action in NOT_BUILT:
        return 404  # the layer (or the workspace's content) the request needs is not built
    return 503


def _add_error_handlers(app: FastAPI) -> None:
    """Every refusal as {"error": "<one line>"} (a validation error also keeps FastAPI's 422 detail)."""
    @app.exception_handler(PolyragError)
    async def project_error(request: Request, err: PolyragError) -> JSONResponse:
        return JSONResponse({"error": str(err)}, status_code=_status(err))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        # one shape for every refusal: {"error": "<one line>"} (validation errors keep FastAPI's 422 detail)
        return JSONResponse({"error": str(err.detail)}, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, err: RequestValidationError) -> JSONResponse:
        # FastAPI's 422 detail, without the offending input: a NaN or an infinity in it cannot be written
        # as JSON (the default handler failed with a 500 on {"k": NaN})
        detail = [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in err.errors()]
        first = detail[0] if detail else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"] if p != "body")
        return JSONResponse({"error": f"{where}: {first['msg']}" if where else first["msg"], "detail": detail},
                            status_code=422)


def create_app(workspace: Path, *, token: str | None = None, host: str = "127.0.0.1") -> FastAPI:
    """The application for one workspace; `token` overrides POLYRAG_TOKEN and serve.token (serving.auth);
    `host`: the address served (on loopback, the MCP transport checks Host and Origin against it)."""
    from serving.auth import require_token, server_token
    from serving.limits import Limits
    from serving.review import add_review

    server = Server(workspace)
    cfg = server.ws.settings.serve
    mcp_app, lifespan = _mcp(server, host)
    app = FastAPI(title="PolyRAG", summary="Question answering over a knowledge pyramid (ontology, KG, text)",
                  version=_version(), lifespan=lifespan)
    app.mount("/mcp", mcp_app)
    app.state.server = server
    app.state.token = server_token(server.ws.settings, token)
    app.add_middleware(Limits, cfg=cfg)

    _add_error_handlers(app)
    app.state.require_token = require_token
    add_review(app, server, require_token)  # the curator's page and its API (actions need the token)

    @app.get("/health")
    def health() -> dict[str, Any]:
        from querying.waterfall import built_layers

        with server.lock:
            server.refresh()
            return {"status": "ok", "workspace": str(server.ws.root), "layers": sorted(built_layers(server.session))}

    @app.get("/stats")
    def stats() -> dict[str, Any]:
        return server.ws.manifest()

    @app.post("/ask", response_model=Answer)
    def ask(req: AskRequest) -> Answer:
        return server.ask(req.question, layer=req.layer, layers=req.layers, options=req.options,
                          sparql_mode=req.sparql, k=req.k)

    @app.get("/search")
    def search(q: str = Query(min_length=1, max_length=4000), k: int = Query(10, ge=1, le=100),
               lam: float | None = Query(None, ge=0, le=1)) -> list[dict[str, Any]]:
        return server.search(q, k, lam)

    @app.get("/kg/search")
    def kg_search(q: str = Query(min_length=1, max_length=4000), k: int = Query(10, ge=1, le=100)
                  ) -> list[dict[str, Any]]:
        return server.kg_search(q, k)

    _add_text2sparql(app, server)
    from serving.chat import add_chat
    from serving.pages import add_pages

    add_chat(app, server)  # POST /v1/chat/completions, GET /v1/models (OpenAI-compatible)
    add_pages(app, server)  # the ask page (/), the SPARQL editor (/query), /schema

    _add_sparql(app, server)

    return app


def _mcp(server: Server, host: str):
    """The MCP tools (serving.mcp_tools) as an app to mount at /mcp/ (streamable HTTP, stateless, JSON
    replies), and the lifespan that runs its transport's task group as long as the application."""
    import contextlib

    from serving.mcp_tools import mcp_for

    mcp = mcp_for(server)
    mcp_app = mcp.streamable_http_app(streamable_http_path="/", json_response=True, stateless_http=True, host=host)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        async with mcp.session_manager.run():
            yield

    return mcp_app, lifespan


def _add_sparql(app: FastAPI, server: Server) -> None:
    """GET|POST /sparql: the SPARQL 1.1 Protocol (see the module docstring)."""

    async def sparql(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        query, ignored = await _protocol_query(request)
        # the query process answers in a thread: the event loop keeps serving meanwhile
        resp = await run_in_threadpool(_run_sparql, server, query, request.headers.get("accept"),
                                       server.ws.settings.serve.max_rows)
        if ignored:  # said, not silently dropped: the dataset is always the union of the workspace's graphs
            resp.headers["Warning"] = (f'299 polyrag "{" and ".join(ignored)} ignored: this endpoint reads the union '
                                       'of the workspace\'s graphs"')
        return resp

    app.add_api_route("/sparql", sparql, methods=["GET"], operation_id="sparql_get",
                      summary="SPARQL 1.1 Protocol query (?query=)")
    app.add_api_route("/sparql", sparql, methods=["POST"], operation_id="sparql_post",
                      summary="SPARQL 1.1 Protocol query (form field or application/sparql-query)")


def _add_text2sparql(app: FastAPI, server: Server) -> None:
    """GET /text2sparql: the TEXT2SPARQL API (querying.text2sparql)."""

    @app.get("/text2sparql")
    def text2sparql(question: str = Query(min_length=1, max_length=4000),
                    dataset: str = Query(min_length=1, max_length=2000)) -> dict[str, Any]:
        from querying.text2sparql import dataset_of, text_to_sparql

        with server.lock:
            server.refresh()
            ours = dataset_of(server.session)
            if dataset != ours:
                raise HTTPException(404, f"unknown dataset {dataset!r}; this server answers for {ours!r}")
            return text_to_sparql(server.session, question, dataset).model_dump()


GRAPH_PARAMETERS = ("default-graph-uri", "named-graph-uri")


async def _protocol_query(request: Request) -> tuple[str, list[str]]:
    """The query of a SPARQL 1.1 Protocol request: ?query= (GET), a form field or the body (POST); and
    the dataset parameters it sent, which this endpoint does not take."""
    given = set(request.query_params)
    if request.method == "GET":
        query = request.query_params.get("query")
    else:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/sparql-update":
            raise HTTPException(400, "this endpoint only reads: SPARQL updates are refused")
        if kind == "application/sparql-query":
            try:
                query = (await request.body()).decode("utf-8")
            except UnicodeDecodeError:
                raise HTTPException(400, "the query is not UTF-8 text") from None
        elif kind == "application/x-www-form-urlencoded":
            from urllib.parse import parse_qs

            try:
                form = parse_qs((await request.body()).decode("utf-8"), keep_blank_values=True)
            except UnicodeDecodeError:
                raise HTTPException(400, "the form is not UTF-8 text") from None
            if "update" in form:
                raise HTTPException(400, "this endpoint only reads: SPARQL updates are refused")
            query = (form.get("query") or [None])[0]
            given |= set(form)
        else:
            raise HTTPException(415, "send the query as application/sparql-query or a form field `query`")
    if not isinstance(query, str) or not query.strip():
        raise HTTPException(400, "no query (pass `query`)")
    return query, [p for p in GRAPH_PARAMETERS if p in given]


def _run_sparql(server: Server, query: str, accept: str | None, max_rows: int) -> Response:
    from pyramid.ontology.results import FORMATS, is_graph, negotiate, serialize

    # not under the server's lock: the store reads one generation per query by itself, and a slow query
    # holds only its own query process (ontology.query_processes), so /ask and other queries go on
    result = server.session.ontology.query(query, row_cap=max_rows, typed=True)
    fmt = negotiate(accept, graph=is_graph(result))
    if not fmt:
        raise HTTPException(406, f"none of {accept!r} fits this result")
    return Response(serialize(result, fmt), media_type=FORMATS[fmt])


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("polyrag")
    except PackageNotFoundError:
        return "0"
