"""Analytical questions over the PolyU ontology (../shared/data/polyu/polyu_onto.ttl), the second
domain of `bench analytics`: counts per department and faculty, thresholds, the highest credit value,
averages, subjects without a prerequisite, yes/no, several attributes of one person. Written in our own
words; every gold row comes from a fixed SPARQL query written here by hand over that graph (never from
the planner). The data is real and noisy (DEPARTMENT is declared a subclass of FACULTY): the gold says
what the graph says."""

from __future__ import annotations

import random
from collections.abc import Callable
from statistics import mean
from typing import Any

Select = Callable[[str], list[dict[str, str]]]
PREFIX = ("PREFIX b: <http://example.org/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
          "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ")


def _q(kind: str, question: str, gold: list[tuple[str, ...]] | None) -> dict[str, Any]:
    return {"kind": kind, "question": question, "gold": [list(r) for r in gold] if gold is not None else None}


def questions(select: Select, seed: int = 5) -> list[dict[str, Any]]:
    rnd = random.Random(seed)

    def rows(body: str) -> list[dict[str, str]]:
        return select(PREFIX + body)

    staff = {r["d"]: (r["l"], int(r["n"])) for r in rows(
        "SELECT ?d ?l (COUNT(DISTINCT ?s) AS ?n) WHERE { ?d a b:DEPARTMENT ; rdfs:label ?l . "
        "?s b:works_for ?d } GROUP BY ?d ?l")}
    depts = sorted(staff)
    out = [_q("rank_count", "Which department has the most staff members?",
              [(d,) for d, (_, n) in staff.items() if n == max(n for _, n in staff.values())]),
           _q("rank_count", "Which department employs the fewest staff?",
              [(d,) for d, (_, n) in staff.items() if n == min(n for _, n in staff.values())])]
    for n in (50, 70):
        out.append(_q("having", f"Which departments have more than {n} staff members?",
                      [(d,) for d, (_, c) in staff.items() if c > n]))
    per_faculty = rows("SELECT ?f (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d b:belongs_to ?f } GROUP BY ?f")
    out.append(_q("group_count", "How many departments does each faculty have?",
                  [(r["f"], r["n"]) for r in per_faculty]))
    for d in rnd.sample(depts, 6):
        name = staff[d][0]
        credits = rows(f"SELECT DISTINCT ?c ?v WHERE {{ ?c b:offered_by <{d}> ; b:has_credit_value ?v }}")
        values = [(r["c"], float(r["v"])) for r in credits if _number(r["v"]) is not None]
        if not values:
            continue
        top = max(v for _, v in values)
        out.append(_q("superlative", f"Which subject offered by the {name} has the highest credit value?",
                      [(c,) for c, v in values if v == top]))
        avg = mean(v for _, v in set(values))  # each (subject, value) once, as the graph holds them
        out.append(_q("aggregate", f"What is the average credit value of the subjects offered by the {name}?",
                      [(str(round(avg, 6)),)]))
        out.append(_q("filter", f"Which subjects offered by the {name} are worth more than 3 credits?",
                      [(c,) for c, v in dict(values).items() if v > 3]))
        free = rows(f"SELECT DISTINCT ?c WHERE {{ ?c b:offered_by <{d}> ; a b:COURSE "
                    "FILTER NOT EXISTS { ?c b:has_pre_requisite ?p } }")
        out.append(_q("negation", f"Which subjects offered by the {name} have no prerequisite?",
                      [(r["c"],) for r in free]))
        out.append(_q("count", f"How many staff members work for the {name}?", [(str(staff[d][1]),)]))
    people = rows("SELECT ?s ?l ?d WHERE { ?s a b:STAFF ; rdfs:label ?l ; b:works_for ?d . ?d a b:DEPARTMENT }")
    for r in rnd.sample(people, 6):
        other = rnd.choice([d for d in depts if d != r["d"]])
        right = rnd.random() < 0.5
        dept = staff[r["d"] if right else other][0]
        out.append(_q("yes_no", f"Does {r['l']} work for the {dept}?", [("yes" if right else "no",)]))
    for r in rnd.sample(people, 5):
        held = rows(f"SELECT ?p ?i WHERE {{ OPTIONAL {{ <{r['s']}> b:has_position ?p }} "
                    f"OPTIONAL {{ <{r['s']}> b:has_research_interest ?i }} }}")
        positions = sorted({h["p"] for h in held if h.get("p")})
        interests = sorted({h["i"] for h in held if h.get("i")})
        if positions and interests:  # every position beside every interest: the rows a table of both holds
            out.append(_q("attributes", f"Give the position and the research interests of {r['l']}.",
                          [(p, i) for p in positions for i in interests]))
    out.append(_q("count", "How many faculties are there?",
                  [(rows("SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { ?f a b:FACULTY }")[0]["n"],)]))
    out.append(_q("derived", "What share of the staff work for the School of Design?", None))
    for i, q in enumerate(out, 1):
        q["id"] = f"polyu-{i:03d}"
    return out


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
