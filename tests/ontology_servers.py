"""Real SPARQL 1.1 servers for the ontology backend tests, started on loopback by the tests themselves.

    oxigraph_server(tmp)  -> Server   `oxigraph serve` from the PyPI package `oxigraph` (the dev extras)
    virtuoso_server(tmp)  -> Server   Virtuoso Open Source 7 from Debian (`make servers` installs it)

Each runs on free 127.0.0.1 ports with its files in the test's directory and is stopped by its own
process id. A server whose binary is not installed fails its tests with what to install: `make test`
installs both (the dev extras, `make servers`), so their absence is a broken setup, never a skip.
Virtuoso: reads at /sparql (the anonymous SPARQL user, which cannot update), writes at
/sparql-auth (HTTP digest as dba/dba, the password of a freshly created database).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

VIRTUOSO_INI = Path("/etc/virtuoso-opensource-7/virtuoso.ini")


@dataclass
class Server:
    name: str
    query_url: str
    update_url: str
    graph_store_url: str = ""
    env: dict[str, str] = field(default_factory=dict)   # POLYRAG_ONTOLOGY__USER/PASSWORD
    proc: subprocess.Popen | None = None
    log: Path | None = None

    def settings(self, **extra) -> dict:
        return {"backend": "sparql", "query_url": self.query_url, "update_url": self.update_url,
                "graph_store_url": self.graph_store_url, **extra}

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(url: str, proc: subprocess.Popen, log: Path, seconds: float) -> None:
    """Until `url` answers an ASK (the server is online), the process dies, or time is up."""
    deadline = time.monotonic() + seconds
    ask = url + "?query=" + urllib.request.quote("ASK {}")
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}: {log.read_text(errors='replace')[-800:]}")
        try:
            with urllib.request.urlopen(urllib.request.Request(ask, headers={
                    "Accept": "application/sparql-results+json"}), timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"{url} not online after {seconds:.0f} s: {log.read_text(errors='replace')[-800:]}")


def oxigraph_server(tmp: Path) -> Server:
    exe = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    if not Path(exe).exists():
        pytest.fail("the `oxigraph` server is not installed: pip install -e '.[dev]' (make install) brings it")
    port = free_port()
    log = tmp / "oxigraph.log"
    proc = subprocess.Popen([exe, "serve", "--location", str(tmp / "oxigraph-db"), "--bind", f"127.0.0.1:{port}"],
                            stdout=log.open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    _wait(base + "/query", proc, log, 30)
    return Server("oxigraph-server", base + "/query", base + "/update", base + "/store", proc=proc, log=log)


def virtuoso_ini(tmp: Path, sql_port: int, http_port: int) -> Path:
    """Debian's virtuoso.ini with every file in `tmp`, both ServerPorts on loopback, and result sets
    large enough for LUBM pages (ResultSetMaxRows)."""
    section, out = "", []
    files = {"DatabaseFile", "ErrorLogFile", "LockFile", "TransactionFile", "xa_persistent_file"}
    for line in VIRTUOSO_INI.read_text().splitlines():
        m = re.match(r"\s*\[(\w+(?: \w+)?)\]", line)
        if m:
            section = m.group(1)
        key = line.split("=", 1)[0].strip() if "=" in line and not line.lstrip().startswith(";") else ""
        if key in files and section in ("Database", "TempDatabase"):
            name = Path(line.split("=", 1)[1].strip()).name
            line = f"{key} = {tmp / name}"
        elif key == "ServerPort" and section == "Parameters":
            line = f"ServerPort = 127.0.0.1:{sql_port}"
        elif key == "ServerPort" and section == "HTTPServer":
            line = f"ServerPort = 127.0.0.1:{http_port}"
        elif key == "DirsAllowed":
            line = f"DirsAllowed = ., {tmp}, /usr/share/virtuoso-opensource-7/vad"
        elif key == "ResultSetMaxRows":
            line = "ResultSetMaxRows = 100000"
        out.append(line)
    path = tmp / "virtuoso.ini"
    path.write_text("\n".join(out) + "\n")
    return path


def virtuoso_server(tmp: Path) -> Server:
    exe = shutil.which("virtuoso-t")
    if exe is None or not VIRTUOSO_INI.exists():
        pytest.fail("Virtuoso Open Source 7 is not installed: `make servers` runs apt-get install -y "
                    "virtuoso-opensource")
    sql_port, http_port = free_port(), free_port()
    ini = virtuoso_ini(tmp, sql_port, http_port)
    log = tmp / "virtuoso.out"
    proc = subprocess.Popen([exe, "+foreground", "+configfile", str(ini)], cwd=tmp,
                            stdout=log.open("wb"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{http_port}"
    _wait(base + "/sparql", proc, log, 90)
    return Server("virtuoso", base + "/sparql", base + "/sparql-auth", "",
                  env={"POLYRAG_ONTOLOGY__USER": "dba", "POLYRAG_ONTOLOGY__PASSWORD": "dba"}, proc=proc, log=log)


def started(kind: str, tmp: Path) -> Server:
    return {"oxigraph-server": oxigraph_server, "virtuoso": virtuoso_server}[kind](tmp)


if __name__ == "__main__":  # by hand: python -m tests.ontology_servers virtuoso DIR
    srv = started(sys.argv[1], Path(sys.argv[2]))
    print(srv, flush=True)
    try:
        signal.pause()
    finally:
        srv.stop()
        os._exit(0)
