"""A yes/no question's verdict from the chosen reading's rows: whether what the question names
besides that reading's anchors is among its answers."""

from __future__ import annotations

from pyramid.normalise import fold
from querying.planning.anchors import overlap
from querying.planning.cues import POLAR
from querying.planning.records import PlanDraft


def polar(draft: PlanDraft, rows: list[dict[str, str]]) -> bool | None:
    """A yes/no question (English opens one with an auxiliary: "Does X work for Y?", "Is X a …?"):
    whether what it names besides the chosen reading's anchors is among that reading's answers — Y
    among the departments X works for. None when the question is no such question or names nothing
    else."""
    best = draft.best
    # (a kind's reading answers which kind, as "Is X a graduate or an undergraduate student?" asks: no yes or no)
    if best is None or not POLAR.match(draft.question) or best.plan.count or best.plan.rank is not None or \
            best.plan.kinds:
        return None
    used = {a.spans for a in best.anchors}
    others = [a for a in draft.anchors if a.spans not in used and not any(overlap(a, b) for b in best.anchors)]
    if not others:  # "Is any supplier based in X?", "Does X cost more than 400 euros?": whether anything is found
        return any(r.get("x") for r in rows)
    if best.kind == "attribute" and any(all(not a.is_value for a in others if a.spans == sp)
                                        for sp in {a.spans for a in others}):
        return None  # a thing named (and never a value) is not among a value's answers: this reading cannot say
    found = {r.get("x", "") for r in rows}
    values = {fold(v) for r in rows for k, v in r.items() if k not in ("x", "x_label")}
    held = {a.spans: False for a in others}  # a span read two ways (a course, a research interest): either
    for a in others:
        held[a.spans] |= bool(set(a.iris) & found) if not a.is_value else fold(a.text) in values
    return all(held.values())
