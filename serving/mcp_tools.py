"""The pyramid's reads as MCP tools, for agents and IDE assistants: `polyrag mcp WS` (stdio) and, under
`polyrag serve`, streamable HTTP at /mcp/ (stateless, JSON replies).

    ask(question, layer?, options?)  the answer, the layer that gave it and its evidence (the Answer JSON)
    sparql(query)                    read-only SPARQL over the ontology (the same safety check, timeout and
                                     row cap as /sparql): kind, variables, rows, truncated
    search(query, k)                 the text layer's hybrid search: chunks with their scores
    kg_search(query, k)              the KG's triple search
    schema()                         the ontology's classes and properties with labels, domains, ranges
    stats()                          the workspace's manifest (what each layer holds)
    resource polyrag://schema        the same schema, for clients that read resources

Built on the official SDK (`mcp`, its MCPServer). Every tool only reads; errors the project knows
(a layer not built, a refused query) come back as the tool's error with the project's one-line
message. The tools share one session and the server's request lock (serving.state.Server): a request
reads one generation of every layer, as on the HTTP API.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from pyramid.errors import PolyragError
from pyramid.types import LayerName
from serving.state import schema_summary

F = TypeVar("F", bound=Callable[..., Any])

INSTRUCTIONS = ("Question answering over a knowledge pyramid: an ontology (SPARQL), a knowledge graph "
                "(triples) and text (chunks). `ask` runs the waterfall and says which layer answered and why; "
                "`schema` lists the ontology's classes and properties for writing `sparql` queries.")


def _known_errors(fn: F) -> F:
    """The project's errors as the tool's error with their one-line message (the SDK hides any other
    exception's text from the client)."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PolyragError as err:
            raise ToolError(str(err)) from None
    return call  # type: ignore[return-value]


def create_mcp(workspace: Path) -> MCPServer:
    """The MCP server for one workspace (tools and resource above), for `polyrag mcp` (stdio)."""
    from serving.state import Server

    return mcp_for(Server(workspace))


def mcp_for(server) -> MCPServer:
    """The tools over `server` (serving.state.Server): `polyrag serve` mounts them at /mcp/ (streamable HTTP)."""
    mcp = MCPServer(name="polyrag", title="PolyRAG", instructions=INSTRUCTIONS)

    @mcp.tool(description="Answer a question from the pyramid (ontology, then knowledge graph, then text); "
                          "returns the answer, the layer that answered and its evidence")
    @_known_errors
    def ask(question: str, layer: LayerName | None = None, options: list[str] | None = None) -> dict[str, Any]:
        from pyramid.types import check_question

        return server.ask(check_question(question), layer=layer, options=options).model_dump(mode="json")

    @mcp.tool(description="Run a read-only SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) over the ontology; "
                          "updates, LOAD and SERVICE are refused")
    @_known_errors
    def sparql(query: str) -> dict[str, Any]:
        result = server.session.ontology.query(query, row_cap=server.ws.settings.serve.max_rows)
        return {"kind": result.kind, "variables": result.variables, "rows": result.rows,
                "truncated": result.truncated}

    @mcp.tool(description="Hybrid (dense + BM25) search of the text layer's chunks")
    @_known_errors
    def search(query: str, k: int = 10) -> list[dict[str, Any]]:
        return server.search(query, max(1, min(k, 100)))

    @mcp.tool(description="Search the knowledge graph's triples by embedding similarity")
    @_known_errors
    def kg_search(query: str, k: int = 10) -> list[dict[str, Any]]:
        return server.kg_search(query, max(1, min(k, 100)))

    @mcp.tool(description="The ontology's classes and properties with their labels, domains and ranges")
    @_known_errors
    def schema() -> dict[str, Any]:
        return schema_summary(server.session)

    @mcp.tool(description="What each layer of the workspace holds")
    @_known_errors
    def stats() -> dict[str, Any]:
        return server.ws.manifest()

    @mcp.resource("polyrag://schema", name="schema", mime_type="application/json",
                  description="The ontology's classes and properties (as the schema tool returns them)")
    def schema_resource() -> str:
        return json.dumps(schema_summary(server.session), ensure_ascii=False)

    return mcp
