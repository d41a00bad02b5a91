"""What the browser tests share: Debian's headless Chromium driven by Selenium through Debian's
chromedriver (nothing downloaded)."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

NEEDS_CHROMIUM = pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                                    reason="Debian's chromium and chromium-driver are not installed (make install "
                                           "installs them)")


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'chrome'}", "--window-size=1400,1000"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver")))
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


@contextlib.contextmanager
def served_workspace(root: Path, ontology: str, docs: list[dict], triples: list[dict] | None = None):
    """A workspace of our own under `root` (an ontology, documents, optionally KG triples), served by a
    real uvicorn server in a thread with the scripted model and no rules (any model call fails loudly);
    yields (base URL, workspace). The environment is put back afterwards."""
    from conftest import cli_exit_code, serve_in_thread

    from serving.app import create_app

    ws = root / "ws"
    (root / "rules.json").write_text("{}")
    (root / "docs.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs))
    (root / "onto.ttl").write_text(ontology)
    steps = [["index", ws, "--docs", root / "docs.jsonl"], ["ontology", "import", ws, root / "onto.ttl"]]
    if triples:
        (root / "t.jsonl").write_text("".join(json.dumps(t) + "\n" for t in triples))
        steps.append(["kg", "import", ws, root / "t.jsonl"])
    mp = pytest.MonkeyPatch()
    mp.setenv("POLYRAG_LLM__PROVIDER", "scripted")
    mp.setenv("POLYRAG_LLM__SCRIPTED_FILE", str(root / "rules.json"))
    try:
        for args in steps:
            assert cli_exit_code(args) == 0, args
        with serve_in_thread(create_app(ws)) as base:
            yield base, ws
    finally:
        mp.undo()
