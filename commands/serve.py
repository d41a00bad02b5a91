"""`polyrag serve WS`: the HTTP API and the SPARQL endpoint (serving.app); `polyrag mcp WS`: the same
reads as MCP tools over stdio (serving.mcp_tools)."""

from __future__ import annotations

from typing import Annotated

import typer

from commands.common import WorkspaceArg, err


def register(root: typer.Typer) -> None:
    root.command("serve")(serve)
    root.command("mcp")(mcp)


def serve(workspace: WorkspaceArg,
          host: Annotated[str, typer.Option(help="address to bind; anything but loopback needs a token")] = "127.0.0.1",
          port: Annotated[int, typer.Option(min=1, max=65535, help="port")] = 8000,
          token: Annotated[str | None, typer.Option(help="token for writing endpoints (default POLYRAG_TOKEN, "
                                                         "then serve.token / POLYRAG_SERVE__TOKEN)")] = None,
          ) -> None:
    """Serve the workspace over HTTP: /ask, /search, /kg/search, /stats, /health, /sparql (SPARQL 1.1
    Protocol), /v1/chat/completions (OpenAI-compatible), /mcp/ (MCP tools); OpenAPI docs at /docs.
    Models and stores load once; reads go on while a build writes."""
    from pyramid.errors import ConfigError
    from serving.app import create_app
    from serving.auth import is_loopback

    app = create_app(workspace, token=token, host=host)  # opens the workspace: a bad one is refused before binding
    if not is_loopback(host) and not app.state.token:
        raise ConfigError(f"refusing to serve on {host} without a token: set POLYRAG_TOKEN (or --token, or "
                          "serve.token), or bind to 127.0.0.1")
    import uvicorn

    err.print(f"serving {workspace} on http://{host}:{port} (docs at /docs)")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=5)


def mcp(workspace: WorkspaceArg) -> None:
    """Serve the workspace to an MCP client (an agent, an IDE assistant) over stdio: tools ask, sparql,
    search, kg_search, schema and stats, and the schema as a resource. Everything it offers only reads."""
    from serving.mcp_tools import create_mcp

    server = create_mcp(workspace)  # opens the workspace: a bad one is refused before the client is answered
    server.run("stdio")
