"""The curator's review page in a real browser: Debian's headless Chromium driven by Selenium through
Debian's chromedriver (nothing downloaded). A completion run on a small workspace (real MiniLM, Oxigraph,
LadybugDB), then on the page: accept one proposal under a new name, reject another with a reason, preview
the schema change, apply (checked by HermiT), see the schema change through /sparql, undo. A
screenshot goes to the test's directory (or to $POLYRAG_REVIEW_SCREENSHOT)."""

from __future__ import annotations

import json
import os
import urllib.parse
import urllib.request

import pytest
from completion_fixtures import BASE, instances_ttl, kg_json_rows, kg_triples, schema_ttl, website_triples
from conftest import run_cli, serve_in_thread
from serving_fixtures import NEEDS_CHROMIUM, browser  # noqa: F401 — fixture

TOKEN = "review-token-7-of-the-curator"
pytestmark = [pytest.mark.slow, NEEDS_CHROMIUM]


def _proposals(ws):
    from completion.review import CompletionFiles
    from pyramid.workspace import Workspace

    return CompletionFiles(Workspace.open(ws)).load().proposals


def _has(base: str, prop: str) -> bool:
    q = f"ASK {{ <{BASE}{prop}> ?p ?o }}"
    req = urllib.request.Request(base + "/sparql?query=" + urllib.parse.quote(q),
                                 headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())["boolean"]


def test_accept_reject_apply_and_undo_in_the_browser(tmp_path, capsys, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ws = tmp_path / "pyramid"
    (tmp_path / "schema.ttl").write_text(schema_ttl())
    (tmp_path / "instances.ttl").write_text(instances_ttl())
    kg = tmp_path / "kg.json"
    kg.write_text(json.dumps(kg_json_rows(kg_triples() + website_triples())))
    for args in (["ontology", "load-schema", ws, tmp_path / "schema.ttl"],
                 ["ontology", "import", ws, tmp_path / "instances.ttl"], ["kg", "import", ws, kg],
                 ["complete", "run", ws]):
        code, out, err = run_cli(args, capsys)
        assert code == 0, err
    proposals = _proposals(ws)
    interest = next(p for p in proposals if any("research interest" in r.text for r in p.relations))
    website = next(p for p in proposals if any("website" in r.text for r in p.relations))

    from serving.app import create_app

    with serve_in_thread(create_app(ws, token=TOKEN)) as base:
        wait = WebDriverWait(browser, 30)
        browser.get(base + "/review")

        def loads() -> int:  # the page counts its renderings: an action's effect is read once it has re-rendered
            return int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-loads") or 0)

        def then(action) -> None:
            n = loads()
            action()
            wait.until(lambda d: loads() > n)

        def row(pid: str):
            return browser.find_element(By.ID, f"row-{pid}")

        def status(pid: str) -> str:
            return row(pid).find_element(By.CSS_SELECTOR, "td:nth-child(2)").text

        wait.until(lambda d: loads() >= 1)
        assert "triples" in row(interest.id).text

        # without the token the action is refused, and says so
        then(lambda: row(interest.id).find_element(By.CSS_SELECTOR, "button.accept").click())
        assert "Authorization" in browser.find_element(By.ID, "message").text
        assert status(interest.id) == "proposed"

        browser.find_element(By.ID, "token").send_keys(TOKEN)
        browser.find_element(By.ID, "by").send_keys("Ann Curator")
        row(interest.id).find_element(By.CSS_SELECTOR, "input.name").send_keys("has_research_interest")
        then(lambda: row(interest.id).find_element(By.CSS_SELECTOR, "button.accept").click())
        assert status(interest.id) == "accepted"
        row(website.id).find_element(By.CSS_SELECTOR, "input.why").send_keys("personal pages are out of scope")
        then(lambda: row(website.id).find_element(By.CSS_SELECTOR, "button.reject").click())
        assert status(website.id) == "rejected"

        browser.find_element(By.ID, "preview").click()
        diff = wait.until(lambda d: d.find_element(By.ID, "diff").text or None)
        assert f"+ <{BASE}has_research_interest> <http://www.w3.org/2000/01/rdf-schema#label> " \
               '"has research interest"' in diff
        assert not _has(base, "has_research_interest")

        then(lambda: browser.find_element(By.ID, "apply").click())
        message = browser.find_element(By.ID, "message").text
        assert "applied as version 1" in message and "HermiT" in message, message
        assert status(interest.id) == "applied"
        assert _has(base, "has_research_interest")  # the schema changed, seen through the SPARQL endpoint
        assert "v1:" in browser.find_element(By.ID, "history").text
        shot = os.environ.get("POLYRAG_REVIEW_SCREENSHOT") or str(tmp_path / "review.png")
        browser.save_screenshot(shot)
        print(f"screenshot: {shot}")

        then(lambda: browser.find_element(By.ID, "undo").click())
        assert "undid version 1" in browser.find_element(By.ID, "message").text
        assert status(interest.id) == "accepted"
        assert not _has(base, "has_research_interest")
    p = next(p for p in _proposals(ws) if p.id == website.id)
    assert (p.status, p.why, p.decided_by) == ("rejected", "personal pages are out of scope", "Ann Curator")
