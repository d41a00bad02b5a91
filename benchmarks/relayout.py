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
import zlib
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


# ------------------------------------------------------------------ a fifth set, prose first, written on 2026-11-27
# for issue 40 and measured once before any change to the reader (`make-pages --layouts prose`): bios,
# news-style paragraphs, questions and answers, run-in headings, first person, a paragraph with one
# keyword line; relations carried by verbs and prepositions, the entity mostly a pronoun
_PRONOUNS = (("she", "her", "her"), ("he", "him", "his"), ("they", "them", "their"))


def _pronouns(name: str) -> tuple[str, str, str]:
    """A pronoun set for the person, the same for a name on every run (pages say he, she or they)."""
    return _PRONOUNS[zlib.crc32(name.encode("utf-8")) % len(_PRONOUNS)]


def _surname(name: str) -> str:
    words = [w for w in name.replace(",", " ").split() if w.isascii() and w.strip("().").lower() not in
             ("dr", "prof", "mr", "ms", "mrs", "ir")]
    return words[0] if words and words[0].isupper() and len(words[0]) > 1 else (words[-1] if words else name)


def _cap(word: str) -> str:
    return word[:1].upper() + word[1:]


def _staff_narrative(name: str, f: Facts) -> str:
    she, _, her = _pronouns(name)
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    out = []
    if units:
        out.append(f"{name} joined the {_and(units)}" + (f" as {pos[0]}." if pos else "."))
    elif pos:
        out.append(f"{name} was appointed {pos[0]}.")
    for x in pos[1:] if units or pos else []:
        out.append(f"{_cap(she)} later took on the role of {x}.")
    if topics:
        out.append(f"Over the years {her} research has centred on {_and(topics)}.")
    return " ".join(out)


def _staff_news(name: str, f: Facts) -> str:
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    sur = _surname(name)
    lead = f"{pos[0]} {name}" if pos else name
    out = [f"In a talk this term, {lead} of the {_and(units)} presented recent findings to colleagues."
           if units else f"In a talk this term, {lead} presented recent findings to colleagues."]
    if topics:
        out.append(f"{sur} has published on {_and(topics)}.")
    for x in pos[1:]:
        out.append(f"{sur} is also {x}.")
    return "\n\n".join(out)


def _staff_interview(name: str, f: Facts) -> str:
    she, _, her = _pronouns(name)
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    out = [f"Meet {name}"]
    if pos or units:
        out.append(f"Q: What do you do here?\nA: I am {_and(pos) if pos else 'on the staff'}"
                   + (f" in the {_and(units)}." if units else "."))
    if topics:
        out.append(f"Q: What questions drive your work?\nA: Mostly {_and(topics)}.")
    return "\n\n".join(out)


def _staff_runin(name: str, f: Facts) -> str:
    she, _, her = _pronouns(name)
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    out = [name]
    if pos or units:
        role = f"{name} holds the post of {_and(pos)}" if pos else f"{name} is on the staff"
        out.append("Appointment. " + role + (f" at the {_and(units)}." if units else "."))
    if topics:
        out.append(f"Research. {_cap(her)} current projects look at {_and(topics)}.")
    return "\n".join(out)


def _staff_first_person(name: str, f: Facts) -> str:
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    out = []
    if pos and units:
        out.append(f"I am {pos[0]} in the {_and(units)}.")
    elif units:
        out.append(f"I teach in the {_and(units)}.")
    elif pos:
        out.append(f"I am {pos[0]}.")
    for x in pos[1:]:
        out.append(f"I also act as {x}.")
    if topics:
        out.append(f"My research covers {_and(topics)}.")
    return "Welcome to my page\n\n" + " ".join(out)


def _staff_paragraph_keywords(name: str, f: Facts) -> str:
    she, _, her = _pronouns(name)
    pos, units, topics = _all(f, "has_position"), _all(f, "works_for"), _all(f, "has_research_interest")
    para = f"{name} is a member of the {_and(units)}." if units else f"{name} is a member of staff."
    if pos:
        para += f" {_cap(she)} {'serve' if she == 'they' else 'serves'} as {_and(pos)}."
    return para + (f"\n\nKeywords: {', '.join(topics)}" if topics else "")


def _subject_narrative(code: str, title: str, f: Facts) -> str:
    dept, credits, level = _one(f, "offered_by"), _one(f, "has_credit_value"), _one(f, "has_subject_level")
    out = [f"In {title} ({code}), students work through the ideas of the field step by step."]
    if dept:
        out.append(f"The subject is run by the {dept}.")
    if credits and level:
        out.append(f"It is worth {credits} credits and is taken at level {level}.")
    elif credits:
        out.append(f"It is worth {credits} credits.")
    return " ".join(out)


def _subject_qa(code: str, title: str, f: Facts) -> str:
    dept, credits, level = _one(f, "offered_by"), _one(f, "has_credit_value"), _one(f, "has_subject_level")
    out = [f"{code} {title}"]
    if dept:
        out.append(f"Which department teaches it? The {dept}.")
    if credits:
        out.append(f"How many credits does it carry? {credits}.")
    if level:
        out.append(f"At which level is it offered? Level {level}.")
    return "\n".join(out)


def _subject_catalogue_entry(code: str, title: str, f: Facts) -> str:
    dept, credits, level = _one(f, "offered_by"), _one(f, "has_credit_value"), _one(f, "has_subject_level")
    out = [f"{code}: {title}."]
    if dept:
        out.append(f"Taught within the {dept}.")
    if level and credits:
        out.append(f"A level {level} subject worth {credits} credits.")
    return " ".join(out)


def _dept_story(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return (f"The {name} is one of the departments of the {fac}, and its staff teach students from every year."
            if fac else f"The {name} teaches students from every year.")


def _dept_welcome(name: str, f: Facts) -> str:
    fac = _one(f, "belongs_to")
    return (f"Welcome. As part of the {fac}, the {name} brings teaching and research together."
            if fac else f"Welcome to the {name}.")


LAYOUTS = {"ours": (STAFF, SUBJECT, DEPT),
           "blind": ([_staff_questions, _staff_oneline, _staff_passive], [_subject_form, _subject_offered],
                     [_dept_headings, _dept_about]),
           "fresh": ([_staff_card, _staff_fronted, _staff_keyvalue], [_subject_inline, _subject_story],
                     [_dept_parent, _dept_sentence]),
           "unseen": ([_staff_directory_row, _staff_bio, _staff_yaml], [_subject_row, _subject_blurb],
                      [_dept_breadcrumb, _dept_bracket]),
           "prose": ([_staff_narrative, _staff_news, _staff_interview, _staff_runin, _staff_first_person,
                      _staff_paragraph_keywords], [_subject_narrative, _subject_qa, _subject_catalogue_entry],
                     [_dept_story, _dept_welcome])}


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
