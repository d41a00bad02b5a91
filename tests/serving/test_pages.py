"""The ask page (/) and the SPARQL editor (/query) in a real browser: Debian's headless Chromium driven
by Selenium. A small workspace of our own (an orchard registry: the ontology and a text layer); real
Oxigraph, MiniLM and bm25s; the scripted model with no rules (any model call fails loudly; the question
asked is answered by the ontology). Screenshots go to the test's directory, or to
$POLYRAG_PAGES_SCREENSHOTS (a directory: docs/ keeps the ones shown there)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from serving_fixtures import NEEDS_CHROMIUM, browser, served_workspace  # noqa: F401 — fixture

pytestmark = [pytest.mark.slow, NEEDS_CHROMIUM]

ONTO = """@prefix o: <http://example.org/orchard#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
o:Tree a owl:Class ; rdfs:label "fruit tree" .
o:Row a owl:Class ; rdfs:label "orchard row" .
o:growsIn a owl:ObjectProperty ; rdfs:label "grows in" ; rdfs:domain o:Tree ; rdfs:range o:Row .
o:t1 a o:Tree ; rdfs:label "Bramley <b>No. 4</b>" ; o:growsIn o:r2 .
o:t2 a o:Tree ; rdfs:label "Egremont Russet" ; o:growsIn o:r2 .
o:r2 a o:Row ; rdfs:label "North Row" .
"""
DOCS = [{"id": "pruning", "text": "Apple trees in the orchard are pruned in late winter, before the buds break."}]


@pytest.fixture(scope="module")
def orchard(tmp_path_factory):
    with served_workspace(tmp_path_factory.mktemp("pages"), ONTO, DOCS) as (base, _):
        yield base


def _shot(browser, tmp_path: Path, name: str) -> None:
    where = Path(os.environ.get("POLYRAG_PAGES_SCREENSHOTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(where / name))


def test_the_ask_page_shows_the_answer_its_layer_evidence_and_trace(orchard, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(orchard + "/")
    browser.find_element(By.ID, "question").send_keys("Which orchard row does Egremont Russet grow in?")
    browser.find_element(By.ID, "go").click()
    wait = WebDriverWait(browser, 60)
    wait.until(lambda d: d.find_element(By.ID, "answer").is_displayed())
    assert browser.find_element(By.ID, "badge").text == "answered by ontology"
    assert "North Row" in browser.find_element(By.ID, "text").text
    evidence = browser.find_element(By.ID, "evidence-body")
    assert "SELECT" in evidence.find_element(By.CSS_SELECTOR, "pre.sparql").text
    assert "North Row" in evidence.find_element(By.TAG_NAME, "table").text
    steps = [r.find_element(By.TAG_NAME, "td").text for r in
             browser.find_elements(By.CSS_SELECTOR, "#trace-body tr")]
    assert "ontology.context" in steps
    _shot(browser, tmp_path, "ask-page.png")

    # one layer that is not built: the page shows the API's one-line refusal
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "layer")).select_by_value("kg")
    browser.find_element(By.ID, "go").click()
    wait.until(lambda d: "error" in d.find_element(By.ID, "status").get_attribute("class"))
    assert "knowledge graph" in browser.find_element(By.ID, "status").text


def test_the_sparql_editor_fills_prefixes_runs_queries_and_shows_errors(orchard, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 60)
    browser.get(orchard + "/query")
    wait.until(lambda d: "PREFIX" in d.find_element(By.ID, "query").get_attribute("value"))
    classes = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#classes li")]
    assert any("fruit tree" in c for c in classes) and any("orchard row" in c for c in classes)

    browser.find_element(By.ID, "run").click()  # the example query: instances per class
    wait.until(lambda d: "rows" in d.find_element(By.ID, "status").text)
    table = browser.find_element(By.CSS_SELECTOR, "#results table").text
    assert "2" in table and "1" in table

    editor = browser.find_element(By.ID, "query")
    editor.clear()
    editor.send_keys("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?l WHERE { "
                     "?t a <http://example.org/orchard#Tree> ; rdfs:label ?l } ORDER BY ?l")
    browser.find_element(By.ID, "run").click()
    wait.until(lambda d: d.find_element(By.ID, "status").text.startswith("2 rows"))
    cells = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#results td")]
    assert "Bramley <b>No. 4</b>" in cells  # a label shown as text, never as markup
    assert not browser.find_elements(By.CSS_SELECTOR, "#results td b")
    _shot(browser, tmp_path, "sparql-editor.png")

    editor.clear()
    editor.send_keys("INSERT DATA { <urn:a> <urn:b> <urn:c> }")
    browser.find_element(By.ID, "run").click()
    wait.until(lambda d: "error" in d.find_element(By.ID, "status").get_attribute("class"))
    assert browser.find_element(By.ID, "status").text  # the server's one-line refusal
