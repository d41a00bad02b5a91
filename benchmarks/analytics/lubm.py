"""Analytical questions over a generated LUBM university (benchmarks.lubm.generator, the univ-bench
schema from ../shared/data/lubm), the third domain of `bench analytics`: counts through the class
hierarchy, per department, rankings and thresholds of counts, absence, yes/no, a derived value. Written
in our own words; every gold row comes from a fixed SPARQL query written here by hand (never from the
planner). LUBM's people share names across departments, so questions name departments and classes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Select = Callable[[str], list[dict[str, str]]]
UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
PREFIX = f"PREFIX ub: <{UB}> "
DEPARTMENTS = 3   # departments generated for the domain (names are unique within one university)


def _q(kind: str, question: str, gold: list[tuple[str, ...]] | None) -> dict[str, Any]:
    return {"kind": kind, "question": question, "gold": [list(r) for r in gold] if gold is not None else None}


def questions(select: Select) -> list[dict[str, Any]]:
    def rows(body: str) -> list[dict[str, str]]:
        return select(PREFIX + body)

    def dept(d: int) -> str:
        return f"http://www.Department{d}.University0.edu"

    def count(body: str) -> str:
        return rows(f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {body} }}")[0]["n"]

    out = []
    for d in range(DEPARTMENTS):
        out.append(_q("count", f"How many full professors work for Department{d}?",
                      [(count(f"?x a ub:FullProfessor ; ub:worksFor <{dept(d)}>"),)]))
        out.append(_q("count", f"How many professors work for Department{d}?",
                      [(count(f"?x a ub:Professor ; ub:worksFor <{dept(d)}>"),)]))
        out.append(_q("count", f"How many research groups does Department{d} have?",
                      [(count(f"?x a ub:ResearchGroup ; ub:subOrganizationOf <{dept(d)}>"),)]))
        head = rows(f"SELECT ?x WHERE {{ ?x ub:headOf <{dept(d)}> }}")
        out.append(_q("lookup", f"Who is the head of Department{d}?", [(r["x"],) for r in head]))
        out.append(_q("yes_no", f"Is Department{d} a sub-organization of University0?", [("yes",)]))
    grads = {r["d"]: r["n"] for r in rows("SELECT ?d (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a ub:GraduateStudent ; "
                                          "ub:memberOf ?d . ?d a ub:Department } GROUP BY ?d")}
    out.append(_q("group_count", "How many graduate students are members of each department?",
                  [(d, n) for d, n in grads.items()]))
    under = {r["d"]: int(r["n"]) for r in rows("SELECT ?d (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a "
                                               "ub:UndergraduateStudent ; ub:memberOf ?d . ?d a ub:Department } "
                                               "GROUP BY ?d")}
    out.append(_q("rank_count", "Which department has the most undergraduate students?",
                  [(d,) for d, n in under.items() if n == max(under.values())]))
    out.append(_q("rank_count", "Which department has the fewest undergraduate students?",
                  [(d,) for d, n in under.items() if n == min(under.values())]))
    middle = sorted(int(n) for n in grads.values())[len(grads) // 2]
    out.append(_q("having", f"Which departments have more than {middle - 1} graduate students?",
                  [(d,) for d, n in grads.items() if int(n) > middle - 1]))
    untaken = rows("SELECT ?c WHERE { ?c a ub:GraduateCourse FILTER NOT EXISTS { ?s ub:takesCourse ?c } }")
    out.append(_q("negation", "Which graduate courses does nobody take?", [(r["c"],) for r in untaken]))
    out.append(_q("derived", "What percentage of the students are graduate students?", None))
    for i, q in enumerate(out, 1):
        q["id"] = f"lubm-{i:03d}"
    return out
