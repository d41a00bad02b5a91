"""Query plans: a small structure a question becomes, compiled to SPARQL deterministically.

    QueryPlan(target="STAFF",
              constraints=[Constraint(path=[Step(property="works_for")], values=["http://example.org/SD"])],
              candidates=[...option IRIs...], count=False)
    →  SELECT DISTINCT ?x ?x_label WHERE { ?x a <…STAFF> . ?x <…works_for> ?c0 . VALUES ?c0 { <…SD> } … }

A constraint is a path of properties from the target (`inverse` walks a property backwards) ending in
IRIs (`op="eq"`) or in a literal compared with `op`. Every name must be a term of the ontology's
`Vocab`; `check_plan` says which one is not and suggests the nearest, and `compile_plan` only ever
writes IRIs it has checked and literals it has escaped, so its output always parses.
`plan_json_schema` turns the vocabulary into the JSON schema an LLM fills (enums = schema terms).
"""

from __future__ import annotations

import math
import re
from typing import Literal

from pydantic import BaseModel, Field

from pyramid.errors import InputError
from pyramid.vocab import Vocab

Op = Literal["eq", "contains", "lt", "le", "gt", "ge", "ne"]
OPS: tuple[str, ...] = ("eq", "contains", "lt", "le", "gt", "ge", "ne")
_COMPARE = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "ne": "!=", "eq": "="}
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDFS_SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
XSD_DOUBLE = "http://www.w3.org/2001/XMLSchema#double"
XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer"
MAX_PATH, MAX_VALUES, MAX_CANDIDATES = 3, 50, 200
# What an IRI may contain when written between <…> (RFC 3987's exclusions for IRIREF in SPARQL).
_IRI = re.compile(r'^[A-Za-z][A-Za-z0-9+.\-]*:[^\s<>"{}|\\^`\x00-\x20]*$')


class Step(BaseModel):
    property: str = Field(description="a property of the ontology (short name)")
    inverse: bool = Field(False, description="walk the property from its object to its subject")


class Constraint(BaseModel):
    path: list[Step] = Field(min_length=1, max_length=MAX_PATH)
    op: Op = "eq"
    values: list[str] = Field(min_length=1, max_length=MAX_VALUES,
                              description="IRIs (op eq on an object property path) or literal values")


class Comparison(BaseModel):
    """Two values of each answer compared with each other ("longer than they are wide": length > width)."""
    left: str = Field(description="a datatype property of the answers (short name)")
    op: Literal["lt", "le", "gt", "ge"]
    right: str = Field(description="another datatype property of the answers, of the same kind (short name)")


class Rank(BaseModel):
    """Order the answers by how many things each reaches along `path` and keep the first ("which
    faculty has the most departments?"); things reached by none are not ranked."""
    path: list[Step] = Field(min_length=1, max_length=MAX_PATH)
    counted: str | None = Field(None, description="the class of what is counted at the path's end (short name)")
    order: Literal["most", "fewest"] = "most"
    having: tuple[Literal["gt", "ge", "lt", "le"], float] | None = Field(
        None, description="keep every instance whose count passes this test instead of the first ones")
    fn: Literal["count", "avg", "sum", "min", "max"] = Field(
        "count", description="what is ranked: how many things the path reaches, or an aggregate of the values "
                             "at its end (a datatype property's): \"the average price per supplier\"")
    every: bool = Field(False, description="keep every instance with its count (\"how many staff in each "
                                           "department\"), not the first ones")


class Order(BaseModel):
    """Order the answers by a value of theirs and keep the first `k`, ties included ("the three
    lightest laptops"); things without the value are not ranked."""
    property: str = Field(description="a datatype property of the answers (short name)")
    descending: bool = True
    k: int = Field(1, ge=1, le=MAX_CANDIDATES)
    skip: int = Field(0, ge=0, le=MAX_CANDIDATES, description="places passed over first (\"the second cheapest\": 1)")


Aggregate = Literal["avg", "sum", "min", "max"]


class QueryPlan(BaseModel):
    target: str = Field(description="the class of what the question asks for (short name)")
    constraints: list[Constraint] = Field(default_factory=list, max_length=6)
    returns: list[str] = Field(default_factory=list, max_length=6, description="datatype properties to show")
    candidates: list[str] = Field(default_factory=list, max_length=MAX_CANDIDATES,
                                  description="restrict the answer to these IRIs (e.g. the MCQ options)")
    count: bool = False
    rank: Rank | None = None
    exclude: list[str] = Field(default_factory=list, max_length=MAX_VALUES,
                               description="IRIs that are never an answer (what the question names, met again "
                                           "at the end of a path that leads back to it)")
    absent: list[list[Step]] = Field(default_factory=list, max_length=3,
                                     description="paths the answers must not have (\"no head\", \"without a price\")")
    compare: list[Comparison] = Field(default_factory=list, max_length=2,
                                      description="two values of each answer compared (\"longer than wide\")")
    kinds: bool = Field(False, description="answer with the most specific classes the candidates are filed "
                                           "under (\"what kind of place is X\")")
    order: Order | None = None
    aggregate: Aggregate | None = Field(None, description="one value of the first returned property over "
                                                          "every answer, instead of the answers")
    digits: int | None = Field(None, ge=0, le=6, description="the aggregate rounded to this many decimal places "
                                                           "(\"rounded to the nearest euro\": 0)")

    def properties(self) -> set[str]:
        """Every property the plan uses: along its constraints and its ranking, and what it returns."""
        paths = [*(c.path for c in self.constraints), *([self.rank.path] if self.rank else []), *self.absent]
        ordered = {self.order.property} if self.order else set()
        compared = {name for c in self.compare for name in (c.left, c.right)}
        return {st.property for path in paths for st in path} | set(self.returns) | ordered | compared


class PlanError(InputError):
    """A plan naming a term the ontology lacks (the message names the nearest terms)."""


# ------------------------------------------------------------------ validation
def _ends_in_entity(path: list[Step], vocab: Vocab) -> bool:
    last = vocab.get(path[-1].property)
    return last is not None and (last.kind == "object" or path[-1].inverse)


def check_plan(plan: QueryPlan, vocab: Vocab) -> list[str]:
    """Readable problems of `plan` against `vocab` (empty = valid)."""
    problems: list[str] = []

    def unknown(what: str, name: str, kinds) -> str:
        near = vocab.nearest(name, kinds)
        return f"{what} {name!r} does not exist" + (f"; nearest: {', '.join(near)}" if near else "")

    t = vocab.get(plan.target)
    if t is None or t.kind != "class":
        problems.append(unknown("class", plan.target, "class"))
    for i, c in enumerate(plan.constraints):
        for step in c.path:
            p = vocab.get(step.property)
            if p is None or p.kind == "class":
                problems.append(unknown("property", step.property, ("object", "datatype")))
            elif p.kind == "datatype" and (step.inverse or step is not c.path[-1]):
                problems.append(f"constraint {i}: datatype property {p.name!r} can only end a path, forwards")
        if problems:
            continue
        if _ends_in_entity(c.path, vocab):
            if c.op not in ("eq", "ne"):
                problems.append(f"constraint {i}: a path ending in an entity takes op eq or ne, not {c.op}")
            problems += [f"constraint {i}: not an IRI: {v!r}" for v in c.values if not _IRI.match(v)]
        elif c.op in ("lt", "le", "gt", "ge") and not all(as_number(v) is not None for v in c.values):
            problems.append(f"constraint {i}: op {c.op} needs numbers, got {c.values}")
    for name in plan.returns:
        p = vocab.get(name)
        if p is None or p.kind != "datatype":
            problems.append(unknown("datatype property", name, "datatype"))
    if plan.rank is not None:
        for step in plan.rank.path:
            p = vocab.get(step.property)
            if p is None or p.kind == "class":
                problems.append(unknown("property", step.property, ("object", "datatype")))
            elif p.kind == "datatype" and (step.inverse or step is not plan.rank.path[-1]):
                problems.append(f"rank: datatype property {p.name!r} can only end its path, forwards")
        c = vocab.get(plan.rank.counted) if plan.rank.counted else None
        if plan.rank.counted and (c is None or c.kind != "class"):
            problems.append(unknown("class", plan.rank.counted, "class"))
        if plan.count:
            problems.append("a plan counts or ranks, not both")
        last = vocab.get(plan.rank.path[-1].property)
        if plan.rank.fn != "count" and (last is None or last.kind != "datatype"):
            problems.append(f"rank: an aggregate ({plan.rank.fn}) needs a path ending in a datatype property")
    for path in plan.absent:
        for step in path:
            p = vocab.get(step.property)
            if p is None or p.kind == "class":
                problems.append(unknown("property", step.property, ("object", "datatype")))
            elif not path or p.kind == "datatype" and (step.inverse or step is not path[-1]):
                problems.append(f"absent: datatype property {p.name!r} can only end its path, forwards")
        if not path or len(path) > MAX_PATH:
            problems.append(f"absent: a path of 1 to {MAX_PATH} steps, not {len(path)}")
    for c in plan.compare:
        for name in (c.left, c.right):
            p = vocab.get(name)
            if p is None or p.kind != "datatype":
                problems.append(unknown("datatype property", name, "datatype"))
        if c.left == c.right:
            problems.append(f"compare: {c.left!r} with itself")
    if plan.order is not None:
        p = vocab.get(plan.order.property)
        if p is None or p.kind != "datatype":
            problems.append(unknown("datatype property", plan.order.property, "datatype"))
        if plan.count or plan.rank is not None or plan.aggregate:
            problems.append("a plan orders by a value, or counts, ranks or aggregates: one of them")
    if plan.kinds and (not plan.candidates or plan.count or plan.rank is not None or plan.order is not None
                       or plan.aggregate or plan.returns):
        problems.append("a plan for the kinds of things names the things (candidates) and nothing else to do")
    if plan.digits is not None and not plan.aggregate:
        problems.append("rounding (digits) applies to an aggregate only")
    if plan.aggregate and (len(plan.returns) != 1 or plan.count or plan.rank is not None):
        problems.append("an aggregate takes exactly one returned property, and no count or rank")
    problems += [f"candidate is not an IRI: {v!r}" for v in plan.candidates if not _IRI.match(v)]
    problems += [f"excluded value is not an IRI: {v!r}" for v in plan.exclude if not _IRI.match(v)]
    return problems


def as_number(text: str) -> float | None:
    """A query's value as a finite number; None for anything else."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


# ------------------------------------------------------------------ compilation
def _literal(text: str) -> str:
    """A SPARQL string literal (quotes, backslashes and control characters escaped)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return '"' + out.replace("\t", "\\t") + '"'


_YEAR = re.compile(r"1\d{3}|2\d{3}")
TEMPORAL = ("date", "dateTime", "dateTimeStamp")


def _temporal(path: list[Step], vocab: Vocab) -> bool:
    """The path ends in a date (its property's declared range)."""
    last = vocab.get(path[-1].property)
    return last is not None and any(r.rsplit("#", 1)[-1] in TEMPORAL for r in last.ranges)


def _node(name: str, vocab: Vocab) -> str:
    return f"<{vocab.get(name).iri}>"  # type: ignore[union-attr]


def compile_plan(plan: QueryPlan, vocab: Vocab, *, limit: int | None = None) -> str:
    """SPARQL for a valid plan (raises PlanError listing the problems otherwise)."""
    problems = check_plan(plan, vocab)
    if problems:
        raise PlanError("; ".join(problems), field="plan")
    if plan.kinds:
        return _kinds(plan, vocab)
    lines = [f"?x a {_node(plan.target, vocab)} ."]
    if plan.candidates:
        lines.append("VALUES ?x { " + " ".join(f"<{v}>" for v in dict.fromkeys(plan.candidates)) + " }")
    for i, c in enumerate(plan.constraints):
        here = "?x"
        for j, step in enumerate(c.path):
            nxt = f"?c{i}" if j == len(c.path) - 1 else f"?c{i}_{j}"
            p = _node(step.property, vocab)
            lines.append(f"{nxt} {p} {here} ." if step.inverse else f"{here} {p} {nxt} .")
            here = nxt
        lines.append(_condition(c, f"?c{i}", vocab))
    for i, path in enumerate(plan.absent):
        here, walk = "?x", []
        for j, step in enumerate(path):
            nxt = f"?a{i}_{j}"
            p = _node(step.property, vocab)
            walk.append(f"{nxt} {p} {here} ." if step.inverse else f"{here} {p} {nxt} .")
            here = nxt
        lines.append(f"FILTER NOT EXISTS {{ {' '.join(walk)} }}")
    for i, c in enumerate(plan.compare):
        left, right = f"?m{i}_l", f"?m{i}_r"
        lines += [f"?x {_node(c.left, vocab)} {left} .", f"?x {_node(c.right, vocab)} {right} .",
                  f"FILTER({_sortable(left)} {_COMPARE[c.op]} {_sortable(right)})"]
    if plan.exclude:
        lines.append(f"FILTER(?x NOT IN ({', '.join(f'<{v}>' for v in dict.fromkeys(plan.exclude))}))")
    returns = [f"?r{i}" for i in range(len(plan.returns))]
    for var, name in zip(returns, plan.returns):
        lines.append(f"OPTIONAL {{ ?x {_node(name, vocab)} {var} }}")
    lines_label = f"OPTIONAL {{ ?x <{RDFS_LABEL}> ?x_label }}"
    if plan.rank is not None:
        here = "?x"
        for j, step in enumerate(plan.rank.path):
            nxt = f"?k{j}"
            p = _node(step.property, vocab)
            lines.append(f"{nxt} {p} {here} ." if step.inverse else f"{here} {p} {nxt} .")
            here = nxt
        if plan.rank.counted:
            lines.append(f"{here} a {_node(plan.rank.counted, vocab)} .")
        order = "DESC" if plan.rank.order == "most" else "ASC"
        tail = f"\nLIMIT {int(limit)}" if limit else ""
        if plan.rank.fn != "count":
            return _ranked_total(plan.rank, lines, lines_label, here, order, tail)
        body = "\n  ".join([*lines, lines_label])
        value = f"COUNT(DISTINCT {here})"
        having = "" if plan.rank.having is None else \
            f"\nHAVING ({value} {_COMPARE[plan.rank.having[0]]} {float(plan.rank.having[1])!r})"
        return (f"SELECT ?x ?x_label ({value} AS ?n) WHERE {{\n  {body}\n}}\n"
                f"GROUP BY ?x ?x_label{having}\nORDER BY {order}(?n) ?x{tail}")
    if plan.order is not None:
        return _ordered(plan, lines, lines_label, vocab)
    if plan.aggregate:
        return _aggregated(plan.aggregate, lines, returns[0], plan.digits)
    body = "\n  ".join(lines)
    if plan.count:
        return f"SELECT (COUNT(DISTINCT ?x) AS ?count) WHERE {{\n  {body}\n}}"
    head = " ".join(["?x", "?x_label", *returns])
    tail = f"\nLIMIT {int(limit)}" if limit else ""
    return f"SELECT DISTINCT {head} WHERE {{\n  {body}\n  {lines_label}\n}}{tail}"


def _kinds(plan: QueryPlan, vocab: Vocab) -> str:
    """The classes of the schema each candidate is filed under, none of them above another of them."""
    things = " ".join(f"<{v}>" for v in dict.fromkeys(plan.candidates))
    classes = " ".join(f"<{c.iri}>" for c in vocab.classes)
    return (f"SELECT DISTINCT ?x ?x_label ?r0 WHERE {{\n  VALUES ?x {{ {things} }}\n  VALUES ?k {{ {classes} }}\n"
            f"  ?x a ?k .\n  FILTER NOT EXISTS {{ ?x a ?k2 . ?k2 <{RDFS_SUBCLASS}>+ ?k . FILTER(?k2 != ?k) }}\n"
            f"  OPTIONAL {{ ?k <{RDFS_LABEL}> ?r0 }}\n  OPTIONAL {{ ?x <{RDFS_LABEL}> ?x_label }}\n}}")


def _ranked_total(rank: Rank, lines: list[str], label: str, here: str, order: str, tail: str) -> str:
    """Each group's aggregate over the values its path reaches, every (group, thing, value) once
    however many graphs state the types on the way, and the label joined after (a label stated twice
    would count every value twice)."""
    inner = "\n      ".join(lines)
    walked = " ".join(f"?k{j}" for j in range(len(rank.path)))  # two things of one value both count
    value = f"{rank.fn.upper()}(<{XSD_DOUBLE}>({here}))"
    having = "" if rank.having is None else \
        f" HAVING ({value} {_COMPARE[rank.having[0]]} {float(rank.having[1])!r})"
    return (f"SELECT DISTINCT ?x ?x_label ?n WHERE {{\n  {{ SELECT ?x ({value} AS ?n) WHERE {{\n"
            f"    {{ SELECT DISTINCT ?x {walked} WHERE {{\n      {inner}\n    }} }}\n  }} GROUP BY ?x{having} }}\n"
            f"  {label}\n}}\nORDER BY {order}(?n) ?x{tail}")


def _sortable(var: str) -> str:
    """A value as it sorts: a number when it reads as one (a decimal stored as text too), else itself
    (a date sorts as a date)."""
    return f"COALESCE(<{XSD_DOUBLE}>({var}), {var})"


def _ordered(plan: QueryPlan, lines: list[str], label: str, vocab: Vocab) -> str:
    """Every answer with its value, in order; the answer keeps the first k and their ties
    (`first_ordered`), so no LIMIT cuts a tie."""
    assert plan.order is not None
    body = "\n  ".join([*lines, f"?x {_node(plan.order.property, vocab)} ?v .", label])
    way = "DESC" if plan.order.descending else "ASC"
    return f"SELECT DISTINCT ?x ?x_label ?v WHERE {{\n  {body}\n}}\nORDER BY {way}({_sortable('?v')}) ?x"


def _aggregated(fn: str, lines: list[str], var: str, digits: int | None = None) -> str:
    """One value over every answer's `var` (bound by the plan's OPTIONAL return), rounded to `digits`
    decimal places when asked; none when no answer has it (an average of nothing is not 0)."""
    value = f"{fn.upper()}(<{XSD_DOUBLE}>({var}))" if fn in ("avg", "sum") else f"{fn.upper()}({var})"
    if digits is not None:
        scale = 10 ** digits
        value = f"(ROUND(<{XSD_DOUBLE}>({value}) * {scale}) / {scale})" if digits else \
            f"<{XSD_INTEGER}>(ROUND(<{XSD_DOUBLE}>({value})))"
    body = "\n    ".join(lines)
    # each thing's value once, however many graphs state its type (a sum counts every row it sees)
    return (f"SELECT ({value} AS ?value) WHERE {{\n  {{ SELECT DISTINCT ?x {var} WHERE {{\n    {body}\n  }} }}\n}}"
            f"\nHAVING (COUNT({var}) > 0)")


def first_ordered(rows: list[dict[str, str]], k: int, skip: int = 0) -> list[dict[str, str]]:
    """An ordered plan's rows cut to the answers in places skip+1 … skip+k, every answer tied with the
    last of them kept (and none tied with the places passed over: a tie spans them)."""
    places: dict[str, int] = {}
    for r in rows:
        places.setdefault(r.get("x", ""), len(places))
    values = {r.get("x", ""): r.get("v") for r in rows}
    order = list(places)
    if skip >= len(order):
        return []
    last = order[min(len(order), skip + k) - 1]
    skipped = {values[x] for x in order[:skip]}
    kept = {x for i, x in enumerate(order) if skip <= i < skip + k or (i >= skip + k and values[x] == values[last])}
    return [r for r in rows if r.get("x", "") in kept and values[r.get("x", "")] not in skipped]


def _condition(c: Constraint, var: str, vocab: Vocab) -> str:
    values = list(dict.fromkeys(c.values))
    if _ends_in_entity(c.path, vocab):
        iris = " ".join(f"<{v}>" for v in values)
        if c.op == "ne":
            return f"FILTER({var} NOT IN ({', '.join(f'<{v}>' for v in values)}))"
        return f"VALUES {var} {{ {iris} }}"
    if c.op in _COMPARE and _temporal(c.path, vocab) and all(_YEAR.fullmatch(v) for v in values):
        # a year against a date: "released after 2023", "hired in 2019"
        return f"FILTER({' || '.join(f'YEAR({var}) {_COMPARE[c.op]} {int(v)}' for v in values)})"
    if c.op in ("lt", "le", "gt", "ge"):
        # SPARQL compares numbers only when both sides are numeric: cast the stored value.
        tests = [f"<{XSD_DOUBLE}>({var}) {_COMPARE[c.op]} {as_number(v)!r}" for v in values]
        return f"FILTER({' || '.join(tests)})"
    folded = f"LCASE(STR({var}))"
    if c.op == "contains":
        tests = [f"CONTAINS({folded}, {_literal(v.lower())})" for v in values]
    elif c.op == "ne":
        return f"FILTER({' && '.join(f'{folded} != {_literal(v.lower())}' for v in values)})"
    else:
        tests = [f"{folded} = {_literal(v.lower())}" for v in values]
    return f"FILTER({' || '.join(tests)})"


# ------------------------------------------------------------------ JSON schema for an LLM
def plan_json_schema(vocab: Vocab, *, classes: list[str] | None = None,
                     properties: list[str] | None = None) -> dict:
    """The JSON schema of a QueryPlan whose class and property names are enums of `vocab`'s terms
    (or of the given subsets, to keep a small model's choice small)."""
    cls_names = classes or [t.name for t in vocab.classes]
    prop_names = properties or [t.name for t in vocab.properties]
    dt_names = [n for n in prop_names if (t := vocab.get(n)) is not None and t.kind == "datatype"]
    step = {"type": "object", "properties": {"property": {"enum": prop_names}, "inverse": {"type": "boolean"}},
            "required": ["property", "inverse"], "additionalProperties": False}
    constraint = {"type": "object", "properties": {
        "path": {"type": "array", "items": step, "minItems": 1, "maxItems": MAX_PATH},
        "op": {"enum": list(OPS)},
        "values": {"type": "array", "items": {"type": "string", "maxLength": 200}, "minItems": 1, "maxItems": 5}},
        "required": ["path", "op", "values"], "additionalProperties": False}
    return {"type": "object", "properties": {
        "target": {"enum": cls_names},
        "constraints": {"type": "array", "items": constraint, "maxItems": 3},
        "returns": {"type": "array", "items": {"enum": dt_names} if dt_names else {"type": "string"}, "maxItems": 3},
        "count": {"type": "boolean"}},
        "required": ["target", "constraints", "returns", "count"], "additionalProperties": False}
