"""`polyrag mcp WS`: the MCP server over stdio, driven end to end by the official SDK's own client
(`mcp.ClientSession` over `stdio_client`). Real Oxigraph, LadybugDB, MiniLM and bm25s; the scripted
model with no rules, so any model call fails loudly (the questions asked are answered by the ontology)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from serving_fixtures import served_workspace

ONTO = """@prefix h: <http://example.org/harbour#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
h:Vessel a owl:Class ; rdfs:label "vessel" .
h:Berth a owl:Class ; rdfs:label "berth" .
h:mooredAt a owl:ObjectProperty ; rdfs:label "moored at" ; rdfs:domain h:Vessel ; rdfs:range h:Berth .
h:orla a h:Vessel ; rdfs:label "Orla Mae" ; h:mooredAt h:b7 .
h:kestrel a h:Vessel ; rdfs:label "Kestrel Run" ; h:mooredAt h:b2 .
h:b7 a h:Berth ; rdfs:label "Berth Seven" .
h:b2 a h:Berth ; rdfs:label "Berth Two" .
"""
DOCS = [{"id": "tides", "text": "Vessels leave the harbour two hours before high tide when the bar is shallow."}]
TRIPLES = [{"sub": "Orla Mae", "rel": "carries", "obj": "timber"}]


@pytest.fixture(scope="module")
def harbour(tmp_path_factory):
    """(base URL of `polyrag serve`, the workspace): the stdio tests start their own `polyrag mcp`."""
    with served_workspace(tmp_path_factory.mktemp("mcp"), ONTO, DOCS, TRIPLES) as served:
        yield served


@pytest.fixture(scope="module")
def harbour_ws(harbour) -> Path:
    return harbour[1]


def _session_run(ws: Path, body):
    """Start `polyrag mcp WS` as a child process and run `body(session)` with the SDK's client."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, "POLYRAG_LLM__PROVIDER": "scripted",
           "POLYRAG_LLM__SCRIPTED_FILE": str(ws.parent / "rules.json")}
    params = StdioServerParameters(command=sys.executable, args=["-c", "import cli; cli.main()", "mcp", str(ws)],
                                   env=env, cwd=str(ROOT))

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await body(session)

    return asyncio.run(asyncio.wait_for(main(), 300))


def _json(result) -> object:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data = result.structured_content
        return data.get("result", data) if set(data) == {"result"} else data
    return json.loads(result.content[0].text)


def test_the_tools_answer_through_the_sdk_client(harbour_ws):
    async def body(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        ask = await session.call_tool("ask", {"question": "Where is the Orla Mae moored?"})
        sparql = await session.call_tool("sparql", {"query": "PREFIX h: <http://example.org/harbour#> "
                                                             "SELECT ?v WHERE { ?v a h:Vessel } ORDER BY ?v"})
        search = await session.call_tool("search", {"query": "when do vessels leave", "k": 3})
        kg = await session.call_tool("kg_search", {"query": "what does Orla Mae carry", "k": 3})
        schema = await session.call_tool("schema", {})
        stats = await session.call_tool("stats", {})
        resource = await session.read_resource("polyrag://schema")
        return tools, ask, sparql, search, kg, schema, stats, resource

    tools, ask, sparql, search, kg, schema, stats, resource = _session_run(harbour_ws, body)
    assert tools == {"ask", "sparql", "search", "kg_search", "schema", "stats"}
    answer = _json(ask)
    assert answer["layer"] == "ontology" and "Berth Seven" in answer["text"], answer
    assert answer["evidence"] and answer["usage"]["calls"] == 0
    rows = _json(sparql)
    assert rows["kind"] == "SELECT" and [r["v"] for r in rows["rows"]] == [
        "http://example.org/harbour#kestrel", "http://example.org/harbour#orla"]
    assert _json(search)[0]["doc_id"] == "tides"
    assert _json(kg)[0]["object"] == "timber"
    names = {p["label"] for p in _json(schema)["properties"]}
    assert "moored at" in names
    assert json.loads(resource.contents[0].text)["classes"]
    assert _json(stats)["layers"]["text"]["documents"] == 1


def test_a_write_through_the_sparql_tool_is_a_tool_error(harbour_ws):
    count = {"query": "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"}

    async def body(session):
        before = await session.call_tool("sparql", count)
        update = await session.call_tool("sparql", {"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"})
        service = await session.call_tool("sparql", {"query": "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> "
                                                              "{ ?s ?p ?o } }"})
        return before, update, service, await session.call_tool("sparql", count)

    before, update, service, after = _session_run(harbour_ws, body)
    assert update.is_error and "Traceback" not in update.content[0].text
    assert service.is_error and "SERVICE" in service.content[0].text
    assert _json(before)["rows"][0]["n"] == _json(after)["rows"][0]["n"] > 0


def test_the_same_tools_over_http_under_serve(harbour):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def main(base: str):
        async with streamable_http_client(base + "/mcp/") as streams, ClientSession(streams[0], streams[1]) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            return tools, await session.call_tool("ask", {"question": "Which berth is the Kestrel Run moored at?"})

    tools, ask = asyncio.run(asyncio.wait_for(main(harbour[0]), 120))
    assert tools == {"ask", "sparql", "search", "kg_search", "schema", "stats"}
    answer = _json(ask)
    assert answer["layer"] == "ontology" and "Berth Two" in answer["text"]
