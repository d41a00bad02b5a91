"""A SPARQL 1.1 Protocol client: read queries to the query endpoint, updates to the update endpoint,
graph loads by the Graph Store Protocol. Only what the remote ontology store needs, on `httpx`.

    client = SparqlHttp(query_url, update_url, graph_store_url="", user="", password="")
    client.query(text, dataset=[iri...], timeout_s=10, row_cap=None, max_bytes=None) -> Reply
    client.update(text, timeout_s=...)          # the update endpoint; never called with a user's text
    client.put_graph(iri, ntriples, timeout_s=...)

Queries go by "query via URL-encoded POST": Virtuoso 7.2 never answers a `application/sparql-query`
POST (measured: the request hangs), the form is the one every server takes, and it keeps the
dataset (one `default-graph-uri` per registered graph, thousands for a large build) out of the URL.
Answers come back as SPARQL JSON (SELECT, ASK) or N-Triples (CONSTRUCT, DESCRIBE) and are turned into
pyoxigraph terms, so the store converts them exactly as the embedded store does (rdfio.to_python).

Time: `timeout_s` bounds the whole exchange: httpx's timeouts cover the connection and the wait for
the answer, and the body is read against the same deadline; past it the response is closed, which
drops the connection (the request is cancelled on our side; the server sees the socket close).

Credentials are sent only when an endpoint asks (HTTP 401): Basic or Digest, as its challenge says.
So a read-only query endpoint is used anonymously while the update endpoint (Virtuoso's
/sparql-auth) authenticates.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx
import pyoxigraph as ox

from pyramid.errors import InputError, QueryTimeout, WorkspaceError

_JSON = "application/sparql-results+json"
_TRIPLES = "application/n-triples, text/plain;q=0.5"   # CONSTRUCT, DESCRIBE: Virtuoso would send JSON rows


class SparqlServerError(WorkspaceError):
    """The SPARQL server cannot be reached, refused the credentials, or answered with an error."""


@dataclass
class Reply:
    """A read query's answer as pyoxigraph terms: `boolean` for ASK, else `rows` of {var: term}
    (CONSTRUCT: subject / predicate / object); `truncated`: the row cap cut it."""

    kind: str
    variables: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    boolean: bool | None = None
    truncated: bool = False


class _ChallengeAuth(httpx.Auth):
    """Basic or Digest, whichever the endpoint's 401 asks for; nothing sent before it asks."""

    requires_request_body = True

    def __init__(self, user: str, password: str) -> None:
        self._basic = httpx.BasicAuth(user, password)
        self._digest = httpx.DigestAuth(user, password)
        self._scheme: dict[str, str] = {}   # host -> "basic" | "digest", learnt from a challenge

    def auth_flow(self, request: httpx.Request):
        host = request.url.netloc.decode()
        scheme = self._scheme.get(host)
        if scheme == "basic":
            yield from self._basic.auth_flow(request)
            return
        if scheme == "digest":  # httpx's digest flow answers the server's fresh challenge itself
            yield from self._digest.auth_flow(request)
            return
        response = yield request
        if response.status_code != 401:
            return
        challenge = response.headers.get("www-authenticate", "").lower()
        self._scheme[host] = "digest" if challenge.startswith("digest") else "basic"
        yield from (self._digest if self._scheme[host] == "digest" else self._basic).auth_flow(request)


def _bnode(label: str) -> ox.BlankNode:
    # Servers label blank nodes their own way (Virtuoso: "nodeID://b10003"), not always a valid id.
    return ox.BlankNode(label if re.fullmatch(r"[A-Za-z0-9_]+", label) else "b" + label.encode().hex())


def term(binding: dict[str, str]) -> Any:
    """A SPARQL JSON binding as a pyoxigraph term (Virtuoso still writes "typed-literal")."""
    kind, value = binding["type"], binding["value"]
    if kind == "uri":
        return ox.NamedNode(value)
    if kind == "bnode":
        return _bnode(value)
    if kind in ("literal", "typed-literal"):
        if "xml:lang" in binding:
            return ox.Literal(value, language=binding["xml:lang"])
        if "datatype" in binding:
            return ox.Literal(value, datatype=ox.NamedNode(binding["datatype"]))
        return ox.Literal(value)
    return value  # RDF-star triple terms: their text, as the embedded store gives them


class SparqlHttp:
    def __init__(self, query_url: str, update_url: str, graph_store_url: str = "", *, user: str = "",
                 password: str = "") -> None:
        self.query_url, self.update_url, self.graph_store_url = query_url, update_url, graph_store_url
        auth = _ChallengeAuth(user, password) if user else None
        self._http = httpx.Client(auth=auth, follow_redirects=False)

    # ------------------------------------------------------------------ reading
    def query(self, text: str, *, dataset: list[str] | None, timeout_s: float, row_cap: int | None = None,
              max_bytes: int | None = None, graph_result: bool = False) -> Reply:
        """POST a read query to the query endpoint; `dataset`: the default (and named) graphs;
        `graph_result`: a CONSTRUCT or DESCRIBE (asked for as N-Triples)."""
        form: list[tuple[str, str]] = [("query", text)]
        for iri in dataset or []:
            form += [("default-graph-uri", iri), ("named-graph-uri", iri)]
        deadline = time.monotonic() + timeout_s
        headers = {"Accept": _TRIPLES if graph_result else _JSON, "Content-Type": "application/x-www-form-urlencoded"}
        with self._send("POST", self.query_url, timeout_s, content=urlencode(form).encode(), what="query",
                        headers=headers) as response:
            body = self._body(response, deadline, timeout_s, max_bytes)
            ctype = response.headers.get("content-type", "").split(";")[0].strip()
        if ctype in (_JSON, "application/json"):
            return _from_json(body, row_cap, self.query_url)
        rows: list[dict[str, Any]] = []
        truncated = False
        for t in ox.parse(body, format=ox.RdfFormat.N_TRIPLES):
            if row_cap is not None and len(rows) >= row_cap:
                truncated = True
                break
            rows.append({"subject": t.subject, "predicate": t.predicate, "object": t.object})
        return Reply("CONSTRUCT", ["subject", "predicate", "object"], rows, truncated=truncated)

    @staticmethod
    def _body(response: httpx.Response, deadline: float, timeout_s: float, max_bytes: int | None) -> bytes:
        chunks, size = [], 0
        for chunk in response.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if time.monotonic() > deadline:
                raise _timeout(timeout_s)
            if max_bytes is not None and size > max_bytes:
                raise InputError(f"the result passed {max_bytes / 1e6:.0f} MB and was stopped; narrow the query or "
                                 "ask for fewer rows", path="query")
        return b"".join(chunks)

    # ------------------------------------------------------------------ writing
    def update(self, text: str, *, timeout_s: float) -> None:
        self._write("POST", self.update_url, timeout_s, content=text.encode(),
                    headers={"Content-Type": "application/sparql-update"}, what="update")

    def put_graph(self, iri: str, ntriples: bytes, *, timeout_s: float) -> None:
        """Graph Store Protocol PUT: the graph's whole content, replacing whatever it held."""
        self._write("PUT", self.graph_store_url, timeout_s, params={"graph": iri}, content=ntriples,
                    headers={"Content-Type": "application/n-triples"}, what="graph load")

    def _write(self, method: str, url: str, timeout_s: float, *, what: str, **kwargs) -> None:
        """A write, tried again when the server reports a deadlock (Virtuoso's SR172 / SQL state
        40001 under its own background work, measured on large Graph Store PUTs): every write here
        is idempotent (a fresh graph's content, a DROP), so a retry cannot double anything."""
        for attempt in range(4):
            try:
                with self._send(method, url, timeout_s, what=what, **kwargs) as response:
                    response.read()
                return
            except SparqlServerError as err:
                if attempt == 3 or "deadlock" not in str(err).lower():
                    raise
                time.sleep(0.5 * 2 ** attempt)

    # ------------------------------------------------------------------ transport
    @contextmanager
    def _send(self, method: str, url: str, timeout_s: float, *, what: str, **kwargs) -> Iterator[httpx.Response]:
        timeout = httpx.Timeout(timeout_s, connect=min(timeout_s, 10.0))
        try:
            with self._http.stream(method, url, timeout=timeout, **kwargs) as response:
                if response.status_code >= 300:
                    response.read()
                    raise _http_error(response, url, what)
                yield response
        except httpx.TimeoutException:
            if what == "query":
                raise _timeout(timeout_s) from None
            raise SparqlServerError(f"the SPARQL server at {url} did not finish the {what} in {timeout_s:g} s "
                                    "(raise ontology.http_timeout_s)") from None
        except httpx.HTTPError as err:
            raise SparqlServerError(f"cannot reach the SPARQL server at {url}: {_one_line(str(err)) or type(err).__name__}"
                                    ) from None

    def close(self) -> None:
        self._http.close()


def _timeout(timeout_s: float) -> QueryTimeout:
    return QueryTimeout(f"the query ran longer than {timeout_s:g} s and was stopped "
                        "(raise ontology.timeout_s, or narrow the query)")


def _one_line(text: str, limit: int = 300) -> str:
    return " ".join(text.split())[:limit]


def _http_error(response: httpx.Response, url: str, what: str) -> Exception:
    code, text = response.status_code, _one_line(response.text)
    if code in (401, 403):
        return SparqlServerError(f"the SPARQL server at {url} refused the {what} (HTTP {code}): check "
                                 "POLYRAG_ONTOLOGY__USER and POLYRAG_ONTOLOGY__PASSWORD" + (f" ({text})" if text else ""))
    if code == 400 and what == "query":
        return InputError(f"the SPARQL server at {url} refused the query: {text}", path="query")
    return SparqlServerError(f"the SPARQL server at {url} answered the {what} with HTTP {code}: {text}")


def _from_json(body: bytes, row_cap: int | None, url: str) -> Reply:
    try:
        data = json.loads(body)
    except ValueError as err:
        raise SparqlServerError(f"the SPARQL server at {url} sent results that are not JSON ({err})") from None
    if "boolean" in data:
        return Reply("ASK", ["ask"], boolean=bool(data["boolean"]))
    names = data.get("head", {}).get("vars", [])
    bindings = data.get("results", {}).get("bindings", [])
    truncated = row_cap is not None and len(bindings) > row_cap
    rows = [{n: term(b[n]) if n in b else None for n in names} for b in bindings[:row_cap]]
    return Reply("SELECT", names, rows, truncated=truncated)
