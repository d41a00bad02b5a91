"""Who may do what. Reading is open (the server binds to loopback unless a token is set); an endpoint
that writes declares `dependencies=[Depends(require_token)]` and then answers only a request that
sends `Authorization: Bearer <token>`. The token is, first found: `polyrag serve --token`, the
environment's POLYRAG_TOKEN, the workspace's `serve.token` (polyrag.toml or POLYRAG_SERVE__TOKEN).
With none configured, every writing endpoint refuses (401): there is no open write.
"""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import Header, HTTPException, Request

from pyramid.config import Settings, process_environment
from pyramid.errors import InputError

MIN_TOKEN = 16  # characters other than spaces: a shorter bearer token is guessed (and " " once bound 0.0.0.0)


def server_token(settings: Settings, given: str | None = None) -> str | None:
    """The token this server asks writers for (see the module docstring), or None; one too short (or
    only spaces) is refused, naming where it came from."""
    for value, source in ((given, "--token"), (process_environment().token.get_secret_value(), "POLYRAG_TOKEN"),
                          (settings.serve.token.get_secret_value(), "serve.token")):
        if value:
            if len(value.strip()) < MIN_TOKEN:
                raise InputError(f"{source}: a token needs at least {MIN_TOKEN} characters other than spaces "
                                 f"(this one has {len(value.strip())}); make one with: python -c \"import secrets; "
                                 "print(secrets.token_urlsafe(24))\"")
            return value
    return None


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def require_token(request: Request, authorization: str | None = Header(None)) -> None:
    """FastAPI dependency for endpoints that write: the bearer token must equal the app's
    (`app.state.token`, set by serving.app.create_app); compared in constant time."""
    token: str | None = getattr(request.app.state, "token", None)
    given = (authorization or "").removeprefix("Bearer ").strip()
    if not token or not hmac.compare_digest(given.encode(), token.encode()):
        raise HTTPException(401, "this endpoint writes: send Authorization: Bearer <token> (polyrag serve --token, "
                                 "POLYRAG_TOKEN or serve.token)")
