"""The TEXT2SPARQL API's answer: the SPARQL the ontology layer would run for a question, for text-to-SPARQL
evaluation clients (`GET /text2sparql?question=…&dataset=…` under `polyrag serve`).

A dataset is named by an IRI; this workspace answers for `serve.dataset`, by default its schema's
namespace. The query is the planned one, as the layer runs it (read-only, through the same safety
check when run); a yes/no question's is an ASK. A question the layer cannot plan gets a query that
selects nothing, and the reason beside it: a client always receives a query it can run."""

from __future__ import annotations

import re

from pydantic import BaseModel

from pyramid.session import Session
from pyramid.types import SparqlEvidence

NOTHING = "SELECT * WHERE { FILTER(false) }"   # what a question with no plan gets: no rows, never an error
_HEAD = re.compile(r"^SELECT\s+DISTINCT\s+[^{]*?WHERE\s*\{", re.IGNORECASE)
_LIMIT = re.compile(r"\s*LIMIT\s+\d+\s*$", re.IGNORECASE)


class Text2Sparql(BaseModel):
    dataset: str
    question: str
    query: str
    answered: bool = True
    reason: str = ""


def dataset_of(session: Session) -> str:
    """The dataset IRI this workspace answers for: `serve.dataset`, else the schema's namespace."""
    return session.settings.serve.dataset or session.ontology.schema.namespace


def text_to_sparql(session: Session, question: str, dataset: str) -> Text2Sparql:
    """The query the ontology layer plans for `question` (see the module docstring)."""
    from querying.ontology_qa import answer_ontology

    ans = answer_ontology(session, question)
    queries = [e.query for e in ans.evidence if isinstance(e, SparqlEvidence) and e.query]
    if not queries:
        reason = ans.text if ans.layer == "none" else "no query"
        return Text2Sparql(dataset=dataset, question=question, query=NOTHING, answered=False, reason=reason)
    query = _LIMIT.sub("", queries[0])
    if ans.layer == "ontology" and re.match(r"(Yes|No)\b", ans.text) and _HEAD.match(query):
        query = _HEAD.sub("ASK WHERE {", query, count=1)  # a yes/no question is answered by ASK
    return Text2Sparql(dataset=dataset, question=question, query=query, answered=ans.layer == "ontology",
                       reason="" if ans.layer == "ontology" else ans.text)
