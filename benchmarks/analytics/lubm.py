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


class _Gold:
    """Gold rows by fixed SPARQL written here, never by the planner."""

    def __init__(self, select: Select) -> None:
        self.select = select

    def rows(self, body: str) -> list[dict[str, str]]:
        return self.select(PREFIX + body)

    def count(self, body: str) -> str:
        return self.rows(f"SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {body} }}")[0]["n"]

    def per_department(self, cls: str, prop: str) -> dict[str, int]:
        return {r["d"]: int(r["n"]) for r in self.rows(f"SELECT ?d (COUNT(DISTINCT ?s) AS ?n) WHERE {{ ?s a ub:{cls} ; "
                                                       f"ub:{prop} ?d . ?d a ub:Department }} GROUP BY ?d")}


def _dept(d: int) -> str:
    return f"http://www.Department{d}.University0.edu"


def _numbered(out: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    for i, q in enumerate(out, 1):
        q["id"] = f"{prefix}-{i:03d}"
    return out


def questions(select: Select) -> list[dict[str, Any]]:
    gold = _Gold(select)
    rows, count = gold.rows, gold.count
    out = []
    for d in range(DEPARTMENTS):
        out.append(_q("count", f"How many full professors work for Department{d}?",
                      [(count(f"?x a ub:FullProfessor ; ub:worksFor <{_dept(d)}>"),)]))
        out.append(_q("count", f"How many professors work for Department{d}?",
                      [(count(f"?x a ub:Professor ; ub:worksFor <{_dept(d)}>"),)]))
        out.append(_q("count", f"How many research groups does Department{d} have?",
                      [(count(f"?x a ub:ResearchGroup ; ub:subOrganizationOf <{_dept(d)}>"),)]))
        head = rows(f"SELECT ?x WHERE {{ ?x ub:headOf <{_dept(d)}> }}")
        out.append(_q("lookup", f"Who is the head of Department{d}?", [(r["x"],) for r in head]))
        out.append(_q("yes_no", f"Is Department{d} a sub-organization of University0?", [("yes",)]))
    grads = gold.per_department("GraduateStudent", "memberOf")
    out.append(_q("group_count", "How many graduate students are members of each department?",
                  [(d, str(n)) for d, n in grads.items()]))
    under = gold.per_department("UndergraduateStudent", "memberOf")
    out.append(_q("rank_count", "Which department has the most undergraduate students?",
                  [(d,) for d, n in under.items() if n == max(under.values())]))
    out.append(_q("rank_count", "Which department has the fewest undergraduate students?",
                  [(d,) for d, n in under.items() if n == min(under.values())]))
    middle = sorted(grads.values())[len(grads) // 2]
    out.append(_q("having", f"Which departments have more than {middle - 1} graduate students?",
                  [(d,) for d, n in grads.items() if n > middle - 1]))
    untaken = rows("SELECT ?c WHERE { ?c a ub:GraduateCourse FILTER NOT EXISTS { ?s ub:takesCourse ?c } }")
    out.append(_q("negation", "Which graduate courses does nobody take?", [(r["c"],) for r in untaken]))
    out.append(_q("derived", "What percentage of the students are graduate students?", None))
    return _numbered(out, "lubm")


def other_wordings(select: Select) -> list[dict[str, Any]]:
    """The same kinds asked in other words, written after the first questions were measured and fixed
    for, and measured once before anything was changed for them (the held-out figure)."""
    gold = _Gold(select)
    rows, count, per_department = gold.rows, gold.count, gold.per_department

    out = [
        _q("count", "How many students belong to Department1?",
           [(count(f"?x a ub:Student ; ub:memberOf <{_dept(1)}>"),)]),
        _q("count", "How many lecturers does Department2 employ?",
           [(count(f"?x a ub:Lecturer ; ub:worksFor <{_dept(2)}>"),)]),
        _q("count", "Count the associate professors of Department0.",
           [(count(f"?x a ub:AssociateProfessor ; ub:worksFor <{_dept(0)}>"),)]),
        _q("count", "What is the number of faculty members working for Department1?",
           [(count(f"?x a ub:Faculty ; ub:worksFor <{_dept(1)}>"),)]),
        _q("lookup", "What is the email address of the head of Department1?",
           [(r["e"],) for r in rows(f"SELECT ?e WHERE {{ ?h ub:headOf <{_dept(1)}> ; ub:emailAddress ?e }}")]),
        _q("lookup", "Which university is Department2 part of?",
           [(r["u"],) for r in rows(f"SELECT ?u WHERE {{ <{_dept(2)}> ub:subOrganizationOf ?u . ?u a ub:University }}")]),
    ]
    lecturers = per_department("Lecturer", "worksFor")
    out.append(_q("rank_count", "Which department employs the most lecturers?",
                  [(d,) for d, n in lecturers.items() if n == max(lecturers.values())]))
    grads = per_department("GraduateStudent", "memberOf")
    out.append(_q("rank_count", "Which department has the smallest number of graduate students?",
                  [(d,) for d, n in grads.items() if n == min(grads.values())]))
    under = per_department("UndergraduateStudent", "memberOf")
    middle = sorted(under.values())[len(under) // 2]
    out.append(_q("having", f"Which departments have fewer than {middle + 1} undergraduate students?",
                  [(d,) for d, n in under.items() if n < middle + 1]))
    untaken = rows("SELECT ?c WHERE { ?c a ub:UndergraduateCourse FILTER NOT EXISTS { ?s ub:takesCourse ?c } }")
    out.append(_q("negation", "Which undergraduate courses are not taken by any student?",
                  [(r["c"],) for r in untaken]))
    lone = rows("SELECT ?s WHERE { ?s a ub:GraduateStudent FILTER NOT EXISTS { ?s ub:advisor ?a } }")
    out.append(_q("negation", "Which graduate students have no advisor?", [(r["s"],) for r in lone]))
    out.append(_q("yes_no", "Does Department2 belong to University0?", [("yes",)]))
    out.append(_q("yes_no", "Is University0 a sub-organization of Department1?", [("no",)]))
    out.append(_q("derived", "What share of the faculty are full professors?", None))
    return _numbered(out, "lubm-other")

