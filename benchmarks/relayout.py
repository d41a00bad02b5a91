"""Pages in layouts of our own, for measuring the page reader on layouts it was never tuned on.

`polyrag bench make-pages --out FILE` re-writes the pages of a pages file (default
`polyu_pages/pages_dev.jsonl`) from the gold ontology's facts about each page's entity, each page in
one of the layouts below, chosen by a seeded draw. The layouts were written after the reader
(`pyramid.reading.page_reader`) and the reader was not changed to suit them: their field labels, orders,
separators and sentences appear in no data file. The page ids stay, so `bench pages --pages FILE`
scores the extraction against the same gold and answers the same AcadChall questions.

What a page states: the facts the pages benchmark scores (unit, faculty, research interests, code,
title, level, credits, positions, name), every gold value of them, noise included, as the dev pages
do; degrees and universities are left out (the gold's values are fragments: "S", "[").
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.pages import Facts, Gold, load_gold

Page = dict[str, str]


def _one(facts: Facts, prop: str) -> str:
    vals = facts.get(prop) or []
    return vals[0][0] if vals else ""


def _all(facts: Facts, prop: str) -> list[str]:
    return list(dict.fromkeys(v[0] for v in facts.get(prop) or []))


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ------------------------------------------------------------------ staff
def _staff_table(name: str, f: Facts) -> str:
    rows = [("Full name", name), ("Appointment", "; ".join(_all(f, "has_position"))),
            ("Academic unit", "; ".join(_all(f, "works_for"))),
            ("Fields of study", "; ".join(_all(f, "has_research_interest")))]
    return "| Attribute | Entry |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows if v)


def _staff_bullets(name: str, f: Facts) -> str:
    parts = [f"Profile of {name}"]
    if pos := _all(f, "has_position"):
        parts.append("Post held — " + "; ".join(pos))
    if units := _all(f, "works_for"):
        parts.append("Home unit — " + "; ".join(units))
    if topics := _all(f, "has_research_interest"):
        parts.append("Expertise\n" + "\n".join(f"• {t}" for t in topics))
    return "\n".join(parts)


def _staff_prose(name: str, f: Facts) -> str:
    out = []
    pos, units = _all(f, "has_position"), _all(f, "works_for")
    if pos and units:
        out.append(f"{name} serves as {pos[0]} with the {_and(units)}.")
    elif units:
        out.append(f"{name} is a member of the {_and(units)}.")
    for p in pos[1:]:
        out.append(f"{name} also holds the post of {p}.")
    if topics := _all(f, "has_research_interest"):
        out.append(f"The research of {name} spans {'; '.join(topics)}.")
    return " ".join(out)


def _staff_pipes(name: str, f: Facts) -> str:
    rows = [("Role", "; ".join(_all(f, "has_position"))), ("Affiliation", "; ".join(_all(f, "works_for"))),
            ("Topics", "; ".join(_all(f, "has_research_interest")))]
    return f"{name}\n" + "\n".join(f"{k} | {v}" for k, v in rows if v)


# ------------------------------------------------------------------ subjects
def _subject_table(code: str, title: str, f: Facts) -> str:
    rows = [("Course code", code), ("Course name", title), ("Run by", _one(f, "offered_by")),
            ("Credit weighting", _one(f, "has_credit_value")), ("Study level", _one(f, "has_subject_level"))]
    return "| Item | Detail |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows if v)


def _subject_dashes(code: str, title: str, f: Facts) -> str:
    rows = [("Catalogue number", code), ("Module name", title), ("Providing department", _one(f, "offered_by")),
            ("Credits awarded", _one(f, "has_credit_value")), ("Level of study", _one(f, "has_subject_level"))]
    text = "\n".join(f"{k} — {v}" for k, v in rows if v)
    if desc := _one(f, "has_subject_description"):
        text += f"\n\nSynopsis\n{desc}"
    return text


def _subject_prose(code: str, title: str, f: Facts) -> str:
    out = []
    if dept := _one(f, "offered_by"):
        out.append(f"The {dept} runs {code} {title}.")
    if (credits := _one(f, "has_credit_value")) and (level := _one(f, "has_subject_level")):
        out.append(f"{code} carries {credits} credits and is pitched at level {level}.")
    return " ".join(out)


# ------------------------------------------------------------------ departments
def _dept_prose(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"Within the {fac}, the {name} teaches and researches." if fac else f"The {name} teaches and researches."


def _dept_table(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"| Unit | Parent body |\n|---|---|\n| {name} | {fac} |" if fac else name


STAFF: list[Callable[[str, Facts], str]] = [_staff_table, _staff_bullets, _staff_prose, _staff_pipes]
SUBJECT: list[Callable[[str, str, Facts], str]] = [_subject_table, _subject_dashes, _subject_prose]
DEPT: list[Callable[[str, Facts], str]] = [_dept_prose, _dept_table]


# ------------------------------------------------------------------ a second set, written in a later session
# and measured once before any change to the reader (`make-pages --layouts fresh`)
def _staff_card(name: str, f: Facts) -> str:
    # a directory card: the title line and the unit, unlabelled, then a labelled list
    lines = [name, *_all(f, "has_position"), *_all(f, "works_for")]
    if topics := _all(f, "has_research_interest"):
        lines += ["", "Research areas:", *(f"- {t}" for t in topics)]
    return "\n".join(lines)


def _staff_fronted(name: str, f: Facts) -> str:
    out = []
    pos, units = _all(f, "has_position"), _all(f, "works_for")
    if pos and units:
        out.append(f"Currently {pos[0]} at the {_and(units)}, {name} joined the university some years ago.")
    elif units:
        out.append(f"Based in the {_and(units)}, {name} teaches and supervises students.")
    if topics := _all(f, "has_research_interest"):
        out.append(f"Areas of expertise: {', '.join(topics)}.")
    return " ".join(out)


def _staff_keyvalue(name: str, f: Facts) -> str:
    rows = [("name", name), ("title", "; ".join(_all(f, "has_position"))),
            ("unit", "; ".join(_all(f, "works_for"))), ("interests", "; ".join(_all(f, "has_research_interest")))]
    return "\n".join(f"{k} = {v}" for k, v in rows if v)


def _subject_inline(code: str, title: str, f: Facts) -> str:
    parts = [f"Code: {code}", f"Title: {title}"]
    if dept := _one(f, "offered_by"):
        parts.append(f"Department: {dept}")
    if credits := _one(f, "has_credit_value"):
        parts.append(f"Credits: {credits}")
    if level := _one(f, "has_subject_level"):
        parts.append(f"Level: {level}")
    return ", ".join(parts)


def _subject_story(code: str, title: str, f: Facts) -> str:
    out = [f"{title} ({code}) is a subject for students who want a grounding in its field."]
    if dept := _one(f, "offered_by"):
        out.append(f"It is taught by the {dept}.")
    if credits := _one(f, "has_credit_value"):
        out.append(f"Completing it earns {credits} credits.")
    if level := _one(f, "has_subject_level"):
        out.append(f"The subject sits at level {level}.")
    return " ".join(out)


def _dept_parent(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"{name}\nPart of: {fac}" if fac else name


def _dept_sentence(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"The {name} is one of the units that make up the {fac}." if fac else f"The {name} welcomes you."


# ------------------------------------------------------------------ a third set, written on 2026-11-26
# and measured once before any change to the reader (`make-pages --layouts blind`)
def _staff_questions(name: str, f: Facts) -> str:
    # an FAQ-style profile: the headings are questions, the answers bare values
    out = []
    if pos := _all(f, "has_position"):
        out += [f"What is {name}'s role?", "; ".join(pos)]
    if units := _all(f, "works_for"):
        out += ["Where can I find them?", "; ".join(units)]
    if topics := _all(f, "has_research_interest"):
        out += ["What do they work on?", " · ".join(topics)]
    return "\n".join(out)


def _staff_oneline(name: str, f: Facts) -> str:
    # everything on one line, fields split by slashes
    parts = [name]
    if pos := _all(f, "has_position"):
        parts.append("Rank: " + ", ".join(pos))
    if units := _all(f, "works_for"):
        parts.append("School/Dept: " + ", ".join(units))
    if topics := _all(f, "has_research_interest"):
        parts.append("Specialisms: " + ", ".join(topics))
    return " // ".join(parts)


def _staff_passive(name: str, f: Facts) -> str:
    out = []
    pos, units = _all(f, "has_position"), _all(f, "works_for")
    if units:
        who = f"{name}, {pos[0]}," if pos else name
        out.append(f"Among the people of the {_and(units)} is {who} whose office is on campus.")
    for p in pos[1 if units else 0:]:
        out.append(f"{name} was appointed {p}.")
    if topics := _all(f, "has_research_interest"):
        out.append(f"Current projects by {name} deal with {_and(topics)}.")
    return " ".join(out)


def _subject_form(code: str, title: str, f: Facts) -> str:
    # a subject description form: label and value split by a tab
    rows = [("Subject Code", code), ("Subject Title", title), ("Credit Value", _one(f, "has_credit_value")),
            ("Level", _one(f, "has_subject_level")), ("Home Department", _one(f, "offered_by"))]
    return "SUBJECT DESCRIPTION FORM\n" + "\n".join(f"{k}\t{v}" for k, v in rows if v)


def _subject_offered(code: str, title: str, f: Facts) -> str:
    out = []
    dept, credits, level = _one(f, "offered_by"), _one(f, "has_credit_value"), _one(f, "has_subject_level")
    if dept:
        out.append(f"Offered by the {dept}, {code} ({title}) is open to students of any programme.")
    if credits:
        out.append(f"Students who pass gain {credits} credits.")
    if level:
        out.append(f"Level: {level}.")
    return " ".join(out)


def _dept_headings(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"# {name}\n\n## Faculty\n{fac}" if fac else f"# {name}"


def _dept_about(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"About us. The {name} sits inside the {fac} and serves students across the city." if fac \
        else f"About us. The {name} serves students across the city."


# ------------------------------------------------------------------ a fourth set, written on 2026-11-26 (a
# later session) and measured once before any change to the reader (`make-pages --layouts unseen`)
def _staff_directory_row(name: str, f: Facts) -> str:
    # a staff directory: one row under a header row, then keywords
    head, row = ["Name"], [name]
    if pos := _all(f, "has_position"):
        head.append("Post")
        row.append(" / ".join(pos))
    if units := _all(f, "works_for"):
        head.append("Unit")
        row.append(" / ".join(units))
    text = "| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n| " + " | ".join(row) + " |"
    if topics := _all(f, "has_research_interest"):
        text += "\n\nKeywords: " + "; ".join(topics)
    return text


def _staff_bio(name: str, f: Facts) -> str:
    # a biography in the third person, the entity mostly a pronoun
    out = [f"{name} joined the university some years ago."]
    pos, units = _all(f, "has_position"), _all(f, "works_for")
    if units:
        out.append(f"They teach in the {_and(units)}" + (f", where they are {pos[0]}." if pos else "."))
    for p in pos[1 if units else 0:]:
        out.append(f"They also serve as {p}.")
    if topics := _all(f, "has_research_interest"):
        out.append(f"Their work focuses on {'; '.join(topics)}.")
    return " ".join(out)


def _staff_yaml(name: str, f: Facts) -> str:
    # lower-case keys, a nested list of interests
    lines = [f"person: {name}"]
    if pos := _all(f, "has_position"):
        lines.append("roles: " + ", ".join(pos))
    if units := _all(f, "works_for"):
        lines.append("department: " + ", ".join(units))
    if topics := _all(f, "has_research_interest"):
        lines += ["research:", *(f"  - {t}" for t in topics)]
    return "\n".join(lines)


def _subject_row(code: str, title: str, f: Facts) -> str:
    cols = [("Code", code), ("Subject", title), ("Credits", _one(f, "has_credit_value")),
            ("Level", _one(f, "has_subject_level")), ("Owning unit", _one(f, "offered_by"))]
    cols = [(k, v) for k, v in cols if v]
    return ("| " + " | ".join(k for k, _ in cols) + " |\n|" + "---|" * len(cols) + "\n| "
            + " | ".join(v for _, v in cols) + " |")


def _subject_blurb(code: str, title: str, f: Facts) -> str:
    dept, credits, level = _one(f, "offered_by"), _one(f, "has_credit_value"), _one(f, "has_subject_level")
    out = [f"{code} {title}"]
    if level and credits:
        out.append(f"This level-{level} subject is worth {credits} credits.")
    if dept:
        out.append(f"It is administered by the {dept}.")
    return "\n".join(out)


def _dept_breadcrumb(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"Home > {fac} > {name}\n\nWelcome to the {name}." if fac else f"Home > {name}"


def _dept_bracket(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return f"The {name} (part of the {fac}) offers programmes at every level." if fac \
        else f"The {name} offers programmes at every level."


LAYOUTS = {"ours": (STAFF, SUBJECT, DEPT),
           "blind": ([_staff_questions, _staff_oneline, _staff_passive], [_subject_form, _subject_offered],
                     [_dept_headings, _dept_about]),
           "fresh": ([_staff_card, _staff_fronted, _staff_keyvalue], [_subject_inline, _subject_story],
                     [_dept_parent, _dept_sentence]),
           "unseen": ([_staff_directory_row, _staff_bio, _staff_yaml], [_subject_row, _subject_blurb],
                      [_dept_breadcrumb, _dept_bracket])}


def relayout(pages: Sequence[Page], gold: Gold, *, seed: int = 7, layouts: str = "ours") -> list[Page]:
    """Each page re-written from its entity's gold facts in a layout drawn with `seed` from the set
    `layouts`; pages whose entity the gold lacks are left out."""
    rng = random.Random(seed)
    staff, subject, dept = LAYOUTS[layouts]
    out: list[Page] = []
    for p in pages:
        f = gold.page_facts(p["id"])
        if not f:
            continue
        kind = p["id"].split("-", 1)[0]
        if kind == "staff":
            name = _one(f, "has_name") or p["title"]
            title, text = name, rng.choice(staff)(name, f)
        elif kind == "subject":
            code, name = _one(f, "has_subject_code"), _one(f, "has_subject_title")
            if not code or not name:
                continue
            title = rng.choice([f"{code} {name}", f"{name} ({code})"])
            text = rng.choice(subject)(code, name, f)
        else:
            title = p["title"]
            text = rng.choice(dept)(title, f)
        out.append({"id": p["id"], "title": title, "text": text})
    return out


def write_pages(pages_file: Path, gold_file: Path, out_file: Path, *, seed: int = 7,
                limit: int | None = None, layouts: str = "ours") -> int:
    """Write the re-laid-out pages as JSONL (atomically); returns how many."""
    from pyramid.workspace import atomic_write_text

    pages = [json.loads(line) for line in Path(pages_file).read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = relayout(pages[:limit] if limit else pages, load_gold(gold_file), seed=seed, layouts=layouts)
    atomic_write_text(out_file, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return len(rows)
