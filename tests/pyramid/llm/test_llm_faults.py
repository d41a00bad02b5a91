"""The OpenAI-compatible provider against a loopback fault server: every fault ends in one LLMError
naming the endpoint, in bounded time, and the endpoint's structured-output form is remembered
across provider instances (a cache file under a temporary XDG_CACHE_HOME)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from pyramid.config import LLMSettings
from pyramid.llm.base import LLMError, LLMSchemaError, LLMUnavailable
from pyramid.llm.client import LLM
from pyramid.llm.factory import make_provider
from pyramid.llm.openai_compat import OpenAICompatProvider

MSG = [{"role": "user", "content": "What is 2+2?"}]
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
LEAKS = ("Traceback", "JSONDecodeError", "IndexError", "TypeError", "KeyError", "AttributeError")


@dataclass
class Reply:
    status: int = 200
    body: Any = None            # dict/list = JSON, str/bytes = sent as is
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False          # read the request, never answer


def ok(content: Any = "four") -> Reply:
    return Reply(body={"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 7, "completion_tokens": 1, "total_tokens": 8}})


class FaultServer(ThreadingHTTPServer):
    """Answers POST /v1/chat/completions with `behaviour(request_json, index)`; records every request."""

    daemon_threads = True

    def __init__(self, behaviour: Callable[[dict, int], Reply]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.behaviour = behaviour
        self.requests: list[dict] = []
        self.release = threading.Event()  # frees hanging handlers at teardown
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def formats(self) -> list[str | None]:
        return [(r.get("response_format") or {}).get("type") for r in self.requests]


class _Handler(BaseHTTPRequestHandler):
    server: FaultServer

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            req = json.loads(raw)
        except ValueError:
            req = {}
        with self.server.lock:
            index = len(self.server.requests)
            self.server.requests.append(req)
        reply = self.server.behaviour(req, index)
        if reply.hang:
            self.server.release.wait(30)
            return
        body = reply.body
        if isinstance(body, (dict, list)) or body is None:
            data, ctype = json.dumps(body).encode(), "application/json"
        else:
            data, ctype = (body.encode() if isinstance(body, str) else body), "text/html"
        self.send_response(reply.status)
        headers = {"Content-Type": ctype, **reply.headers}
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # keep test output clean
        pass


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Never touch the real home or go through a proxy."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "xdg" / "polyrag" / "endpoints.json"


@pytest.fixture
def serve():
    servers: list[FaultServer] = []

    def start(behaviour: Callable[[dict, int], Reply] | Reply) -> FaultServer:
        server = FaultServer(behaviour if callable(behaviour) else (lambda req, i: behaviour))
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.release.set()
        server.shutdown()
        server.server_close()


def provider(server: FaultServer, **kwargs) -> OpenAICompatProvider:
    kwargs = {"max_retries": 1, "retry_backoff_s": 0.01, "timeout_s": 5.0, **kwargs}
    return OpenAICompatProvider(server.url, "m", **kwargs)


def fails(call: Callable[[], Any], error: type[LLMError], match: str, within_s: float) -> LLMError:
    """Runs `call`, which must raise `error` (one clean line, no leaked traceback types) in time."""
    start = time.monotonic()
    with pytest.raises(LLMError) as info:
        call()
    elapsed = time.monotonic() - start
    err = info.value
    assert isinstance(err, error), f"{type(err).__name__}: {err}"
    text = str(err)
    assert match in text, text
    assert "\n" not in text and not any(leak in text for leak in LEAKS), text
    # raised `from None`: a caller printing it sees no chained JSONDecodeError/IndexError
    assert err.__cause__ is None and (err.__context__ is None or err.__suppress_context__)
    assert elapsed < within_s, f"took {elapsed:.1f} s"
    return err


def ask(p: OpenAICompatProvider, schema=None):
    return p.generate(MSG, schema=schema, max_tokens=16, temperature=0.0, seed=0)


# --- HTTP faults ---------------------------------------------------------------------------------

@pytest.mark.timeout(30)
def test_http_500_is_retried_then_one_clear_error(serve):
    server = serve(Reply(500, {"error": {"message": "upstream exploded", "type": "server_error"}}))
    p = provider(server, max_retries=2)
    err = fails(lambda: ask(p), LLMError, f"LLM endpoint {server.url} answered (HTTP 500)", within_s=5)
    assert "upstream exploded" in str(err) and "after 3 attempts" in str(err)
    assert len(server.requests) == 3


@pytest.mark.timeout(30)
def test_http_429_waits_for_retry_after_then_succeeds(serve):
    server = serve(lambda req, i: Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "1"})
                   if i == 0 else ok("four"))
    start = time.monotonic()
    reply = ask(provider(server, max_retries=1))
    elapsed = time.monotonic() - start
    assert reply.text == "four" and reply.prompt_tokens == 7 and len(server.requests) == 2
    assert 0.9 <= elapsed < 5  # waited what the server asked, not our 10 ms backoff


@pytest.mark.timeout(30)
def test_http_429_every_time_ends_in_rate_limit_error(serve):
    server = serve(Reply(429, {"error": {"message": "quota"}}, {"Retry-After": "1"}))
    start = time.monotonic()
    fails(lambda: ask(provider(server, max_retries=1)), LLMError,
          f"LLM endpoint {server.url} is rate-limiting requests (HTTP 429): quota (after 2 attempts)", within_s=5)
    assert time.monotonic() - start >= 0.9 and len(server.requests) == 2


@pytest.mark.timeout(30)
def test_hang_past_the_timeout_ends_in_unavailable(serve):
    server = serve(Reply(hang=True))
    fails(lambda: ask(provider(server, timeout_s=0.5, max_retries=1)), LLMUnavailable,
          f"LLM endpoint {server.url} timed out (no reply within 0.5 s) (after 2 attempts)", within_s=5)
    assert len(server.requests) == 2


@pytest.mark.timeout(30)
def test_bad_request_is_not_retried(serve):
    server = serve(Reply(400, {"error": {"message": "context length exceeded"}}))
    fails(lambda: ask(provider(server, max_retries=3)), LLMError, "answered (HTTP 400): context length exceeded",
          within_s=5)
    assert len(server.requests) == 1


@pytest.mark.timeout(30)
def test_unreachable_endpoint_is_unavailable():
    import socket
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = OpenAICompatProvider(f"http://127.0.0.1:{port}/v1", "m", max_retries=1, retry_backoff_s=0.01)
    fails(lambda: ask(p), LLMUnavailable, "is unreachable", within_s=5)


# --- malformed 200 replies: errors of the provider, handled like a 500 ---------------------------

MALFORMED = {
    "non-JSON body": (Reply(body="<html>502 Bad Gateway</html>"), "the body is not JSON (text/html: "),
    "invalid UTF-8": (Reply(body=b"\xff\xfe{"), "the body is not JSON"),
    "JSON array body": (Reply(body=[1, 2]), "the body is a JSON list, not an object"),
    "no choices": (Reply(body={"choices": []}), "no choices"),
    "choices missing": (Reply(body={"id": "x"}), "no choices"),
    "choice is null": (Reply(body={"choices": [None]}), "the first choice has no message"),
    "message is null": (Reply(body={"choices": [{"message": None}]}), "the first choice has no message"),
    "empty content": (ok(""), "empty content (finish_reason stop)"),
    "null content": (ok(None), "empty content"),
    "blank content": (ok("  \n "), "empty content"),
    "content not text": (ok(42), "empty content"),
    "error with status 200": (Reply(body={"error": {"message": "model overloaded"}}), "an error: model overloaded"),
    "refusal": (Reply(body={"choices": [{"finish_reason": "stop", "message": {"content": None,
                                                                              "refusal": "I can't"}}]}),
                "the model refused: I can't"),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_200_is_an_llm_error_after_retries(serve, case):
    reply, problem = MALFORMED[case]
    server = serve(reply)
    for schema in (None, SCHEMA):
        server.requests.clear()
        p = provider(server, max_retries=2)
        fails(lambda p=p, schema=schema: LLM(p).complete(MSG, schema), LLMError,
              f"LLM endpoint {server.url} sent a malformed reply: {problem}", within_s=5)
        assert len(server.requests) == 3  # retried like a 500


@pytest.mark.timeout(30)
def test_malformed_then_good_reply_recovers(serve):
    server = serve(lambda req, i: [Reply(body="oops"), Reply(body={"choices": []}), ok("four")][min(i, 2)])
    assert ask(provider(server, max_retries=2)).text == "four" and len(server.requests) == 3


@pytest.mark.timeout(30)
def test_content_as_parts_and_missing_usage_are_accepted(serve):
    server = serve(Reply(body={"choices": [{"message": {"content": [{"type": "text", "text": "fo"},
                                                                    {"type": "text", "text": "ur"}]}}]}))
    reply = ask(provider(server))
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("four", 0, 0)


@pytest.mark.timeout(30)
def test_schema_invalid_content_ends_in_the_same_error_family(serve):
    server = serve(ok('{"n": "four"}'))
    err = fails(lambda: LLM(provider(server), schema_retries=1).complete(MSG, SCHEMA), LLMSchemaError,
                "structured reply failed after 2 attempts: reply fails its schema at n", within_s=5)
    assert err.last_reply == '{"n": "four"}' and len(server.requests) == 2


# --- the structured-output form, learned once per endpoint --------------------------------------

def learned(path) -> dict[str, str]:
    return {k: v["structured_output"] for k, v in json.loads(path.read_text())["endpoints"].items()}


def llama_like(req: dict, i: int) -> Reply:
    """llama-cpp-python's server: json_schema is refused with a 500, json_object + schema works."""
    if (req.get("response_format") or {}).get("type") == "json_schema":
        return Reply(500, {"error": {"message": "1 validation error for CreateChatCompletionRequest",
                                     "type": "internal_server_error"}})
    return ok('{"n": 4}')


def openai_like(req: dict, i: int) -> Reply:
    """A server that takes only OpenAI's json_schema form."""
    if (req.get("response_format") or {}).get("type") == "json_object":
        return Reply(400, {"error": {"message": "unknown parameter response_format.schema"}})
    return ok('{"n": 4}')


@pytest.mark.timeout(30)
def test_json_object_fallback_is_remembered_across_instances(serve, private_cache):
    server = serve(llama_like)
    first = provider(server, max_retries=3)
    assert LLM(first).complete(MSG, SCHEMA).parsed == {"n": 4}
    # one refused request, not 1 + max_retries: an unknown endpoint's refusal is not retried
    assert server.formats() == ["json_schema", "json_object"] and first.structured_output == "json_object"
    assert learned(private_cache) == {f"{server.url} m": "json_object"}
    assert [f.name for f in private_cache.parent.iterdir()] == ["endpoints.json"]  # no temp file left
    server.requests.clear()
    second = provider(server, max_retries=3)  # a new process would do the same: read at construction
    assert second.structured_output == "json_object"
    assert LLM(second).complete(MSG, SCHEMA).parsed == {"n": 4}
    assert server.formats() == ["json_object"]  # no failing request
    # the choice is per (base_url, model): another model on the same server starts from json_schema
    assert OpenAICompatProvider(server.url, "other").structured_output == "json_schema"


@pytest.mark.timeout(30)
def test_factory_defers_to_the_learned_form_but_an_explicit_json_object_wins(serve):
    server = serve(openai_like)
    settings = dict(provider="openai", base_url=server.url, model="m", max_retries=0)
    assert make_provider(LLMSettings(**settings)).structured_output == "json_schema"
    provider(server, structured_output="auto")._memory.remember(server.url, "m", "json_object")
    assert make_provider(LLMSettings(**settings)).structured_output == "json_object"  # learned
    firm = make_provider(LLMSettings(**settings, structured_output="json_object"))
    fails(lambda: ask(firm, SCHEMA), LLMError, "answered (HTTP 400)", within_s=5)
    assert firm.structured_output == "json_object" and server.formats() == ["json_object"]  # never switched


@pytest.mark.timeout(30)
def test_stale_learned_form_switches_back_and_is_rewritten(serve, private_cache):
    server = serve(openai_like)
    provider(server)._memory.remember(server.url, "m", "json_object")
    p = provider(server)
    assert ask(p, SCHEMA).text == '{"n": 4}'
    assert server.formats() == ["json_object", "json_schema"]
    assert learned(private_cache) == {f"{server.url} m": "json_schema"}


@pytest.mark.timeout(30)
def test_explicit_form_never_switches(serve):
    server = serve(llama_like)
    p = provider(server, structured_output="json_schema", max_retries=1)
    fails(lambda: ask(p, SCHEMA), LLMError, "answered (HTTP 500): 1 validation error", within_s=5)
    assert server.formats() == ["json_schema", "json_schema"]


@pytest.mark.timeout(30)
def test_a_confirmed_form_is_not_dropped_for_a_later_500(serve):
    server = serve(lambda req, i: ok('{"n": 4}') if i == 0 else Reply(500, {"error": {"message": "down"}}))
    p = provider(server, max_retries=1)
    assert ask(p, SCHEMA).text == '{"n": 4}'
    fails(lambda: ask(p, SCHEMA), LLMError, "answered (HTTP 500): down (after 2 attempts)", within_s=5)
    assert server.formats() == ["json_schema"] * 3 and p.structured_output == "json_schema"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("garbage", [b"{not json", b"\xff\xfe", b"[1, 2]", b'{"endpoints": []}',
                                     b'{"endpoints": {"x": 1}}'])
def test_corrupt_cache_file_is_ignored_and_rewritten(serve, private_cache, garbage):
    private_cache.parent.mkdir(parents=True)
    private_cache.write_bytes(garbage)
    server = serve(llama_like)
    p = provider(server)
    assert p.structured_output == "json_schema"
    assert LLM(p).complete(MSG, SCHEMA).parsed == {"n": 4}
    assert learned(private_cache) == {f"{server.url} m": "json_object"}


@pytest.mark.timeout(30)
def test_unwritable_cache_dir_costs_nothing_but_the_memory(serve, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # polyrag/ cannot be made under a file
    server = serve(llama_like)
    assert LLM(provider(server)).complete(MSG, SCHEMA).parsed == {"n": 4}
    assert provider(server).structured_output == "json_schema"  # nothing was kept, nothing crashed


def test_memory_keeps_the_most_recent_endpoints(private_cache, monkeypatch):
    from pyramid.llm import endpoints

    monkeypatch.setattr(endpoints, "MAX_ENTRIES", 3)
    memory = endpoints.EndpointMemory(endpoints.default_path())
    assert memory.path == private_cache
    for i in range(5):
        monkeypatch.setattr(endpoints.time, "time", lambda i=i: 1000.0 + i)
        memory.remember(f"http://h{i}/v1/", "m", "json_object")
    assert sorted(learned(private_cache)) == ["http://h2/v1 m", "http://h3/v1 m", "http://h4/v1 m"]
    assert memory.structured_output("http://h4/v1", "m") == "json_object"  # trailing slash or not
    assert memory.structured_output("http://h0/v1", "m") is None
