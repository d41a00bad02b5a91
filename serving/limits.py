"""Request limits, in one place with their settings (`serve.max_body_kb`, `serve.request_timeout_s`).

The body cap is an ASGI middleware that counts the bytes as they arrive, so a request that declares
no Content-Length (chunked) is held to it as well as one that declares too much; the time limit
answers 504 and lets the work already started finish (it holds the workspace's read lock, and a
thread cannot be stopped part-way).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import HTTPException

from pyramid.config import ServeSettings


def _too_large(cfg: ServeSettings) -> str:
    return f"request body over {cfg.max_body_kb} KB (serve.max_body_kb)"


async def _send_json(send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


class Limits:
    """ASGI middleware: 413 past `max_body_kb`, 504 past `request_timeout_s`, each one JSON line."""

    def __init__(self, app, cfg: ServeSettings) -> None:
        self.app, self.cfg = app, cfg

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        cfg, cap = self.cfg, self.cfg.max_body_kb * 1024
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > cap:
            return await _send_json(send, 413, {"error": _too_large(cfg)})
        seen = 0
        started = False

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:  # raised inside the endpoint's body read: FastAPI answers it
                    raise HTTPException(413, _too_large(cfg))
            return message

        async def tracked(message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await asyncio.wait_for(self.app(scope, counted, tracked), timeout=cfg.request_timeout_s)
        except TimeoutError:
            if not started:
                await _send_json(send, 504, {"error": f"no answer within {cfg.request_timeout_s:g} s "
                                                      "(serve.request_timeout_s)"})
