"""A loopback OpenAI-compatible server that takes a fixed time per request: what a build's parallel
model calls are measured against (`bench scale`) and tested with (tests/pyramid/test_parallel_build.py).

Its replies fit the request's JSON schema and are a function of the prompt alone (words taken from
the prompt, picked by its hash), so a build gets the same replies whatever order its calls arrive
in; it counts how many requests it held at once.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_WORD = re.compile(r"[A-Z][a-z]{2,}")


def fill(schema: dict[str, Any], words: list[str], seed: int) -> Any:
    """A value of `schema` made of `words`, chosen by `seed` (deterministic)."""
    kind = schema.get("type")
    if "enum" in schema:
        return schema["enum"][seed % len(schema["enum"])]
    if kind == "object":
        return {k: fill(v, words, seed + i) for i, (k, v) in enumerate(schema.get("properties", {}).items())}
    if kind == "array":
        n = max(schema.get("minItems", 1), min(2, schema.get("maxItems", 2)))
        return [fill(schema.get("items", {"type": "string"}), words, seed + 7 * i) for i in range(n)]
    if kind in ("integer", "number"):
        return max(schema.get("minimum", 1), 1)
    if kind == "boolean":
        return seed % 2 == 0
    text = words[seed % len(words)] if words else "nothing"
    return text[:schema.get("maxLength", len(text))]


class SlowServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, delay_s: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_at_once = 0
        self.requests = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: SlowServer

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        srv = self.server
        with srv.lock:
            srv.in_flight += 1
            srv.requests += 1
            srv.most_at_once = max(srv.most_at_once, srv.in_flight)
        counted = True
        try:
            req = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            prompt = next((m.get("content", "") for m in reversed(req.get("messages", []))
                           if m.get("role") == "user"), "")
            words = list(dict.fromkeys(_WORD.findall(prompt))) or ["Nothing"]
            seed = int(hashlib.sha256(prompt.encode()).hexdigest()[:8], 16)
            fmt = req.get("response_format") or {}
            schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
            content = json.dumps(fill(schema, words, seed)) if schema else " ".join(words[:12])
            time.sleep(srv.delay_s)
            # Counted out before the reply is sent: once the client has its reply it may send the next
            # request, and that one must not find this one still counted in flight.
            with srv.lock:
                srv.in_flight -= 1
                counted = False
            body = json.dumps({"id": "fake", "object": "chat.completion", "created": 0, "model": "slow",
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": content}}],
                               "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": 8,
                                         "total_tokens": len(prompt.split()) + 8}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        finally:
            if counted:
                with srv.lock:
                    srv.in_flight -= 1


@contextmanager
def slow_server(delay_s: float) -> Iterator[SlowServer]:
    server = SlowServer(delay_s)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
