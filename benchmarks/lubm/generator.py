"""A LUBM data generator in Python following the published UBA (Univ-Bench Artificial) rules.

Written from the UBA description (Guo, Pan, Heflin: "LUBM: A benchmark for OWL knowledge base
systems", J. Web Semantics 2005, and the UBA 1.7 profile), not from its code. Per university:

    departments            15–25            (a `departments=` override keeps tests small)
    per department         full professors 7–10, associate 10–14, assistant 8–11, lecturers 5–7;
                           undergraduates 8–14 per faculty member, graduate students 3–4 per faculty;
                           research groups 10–20 (subOrganizationOf the department)
    courses                every faculty member teaches 1–2 courses and 1–2 graduate courses
    students               undergraduates take 2–4 courses, graduate students 1–3 graduate courses;
                           1 in 5 undergraduates has a professor as advisor, every graduate student does;
                           1 in 4–5 graduate students is a teaching assistant of a course,
                           1 in 3–4 a research assistant
    publications           full professor 15–20, associate 10–18, assistant 5–10, lecturer 0–5;
                           graduate students co-author 0–5 of their department's professors' papers
    degrees                faculty: undergraduate, masters and doctoral degree from a university drawn
                           from 1,000; graduate students: undergraduate degree likewise
    head                   one full professor per department is headOf it

IRIs as in UBA: http://www.University0.edu, http://www.Department0.University0.edu,
.../FullProfessor0, .../GraduateStudent3, .../Course7, .../FullProfessor0/Publication2.
Output is N-Triples (one file per university), deterministic for a seed.
"""

from __future__ import annotations

import random
from pathlib import Path

UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
DEGREE_UNIVERSITIES = 1000

FACULTY = {  # kind: (min, max) per department, (min, max) publications
    "FullProfessor": ((7, 10), (15, 20)),
    "AssociateProfessor": ((10, 14), (10, 18)),
    "AssistantProfessor": ((8, 11), (5, 10)),
    "Lecturer": ((5, 7), (0, 5)),
}
PROFESSORS = ("FullProfessor", "AssociateProfessor", "AssistantProfessor")


def university_iri(u: int) -> str:
    return f"http://www.University{u}.edu"


def department_iri(d: int, u: int) -> str:
    return f"http://www.Department{d}.University{u}.edu"


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def type(self, s: str, cls: str) -> None:
        self.lines.append(f"<{s}> <{TYPE}> <{UB}{cls}> .")

    def rel(self, s: str, p: str, o: str) -> None:
        self.lines.append(f"<{s}> <{UB}{p}> <{o}> .")

    def lit(self, s: str, p: str, value: str) -> None:
        self.lines.append(f'<{s}> <{UB}{p}> "{value}" .')


def university(u: int, *, seed: int = 0, departments: int | None = None) -> list[str]:
    """N-Triples lines of university `u` (deterministic for (seed, u, departments))."""
    rnd = random.Random(f"{seed}:{u}")
    between = lambda lo_hi: rnd.randint(*lo_hi)
    w = _Writer()
    univ = university_iri(u)
    w.type(univ, "University")
    w.lit(univ, "name", f"University{u}")
    for d in range(departments if departments is not None else between((15, 25))):
        _department(w, rnd, u, d)
    return w.lines


def _person(w: _Writer, iri: str, kind: str, name: str, dept: int, u: int) -> None:
    w.type(iri, kind)
    w.lit(iri, "name", name)
    w.lit(iri, "emailAddress", f"{name}@Department{dept}.University{u}.edu")
    w.lit(iri, "telephone", "xxx-xxx-xxxx")


def _department(w: _Writer, rnd: random.Random, u: int, d: int) -> None:
    between = lambda lo_hi: rnd.randint(*lo_hi)
    dept = department_iri(d, u)
    w.type(dept, "Department")
    w.lit(dept, "name", f"Department{d}")
    w.rel(dept, "subOrganizationOf", university_iri(u))
    for g in range(between((10, 20))):
        group = f"{dept}/ResearchGroup{g}"
        w.type(group, "ResearchGroup")
        w.rel(group, "subOrganizationOf", dept)

    faculty: dict[str, list[str]] = {}
    courses: list[str] = []
    grad_courses: list[str] = []
    teaches: dict[str, list[str]] = {}
    for kind, (count, _) in FACULTY.items():
        faculty[kind] = [f"{dept}/{kind}{i}" for i in range(between(count))]
    for kind, members in faculty.items():
        for i, f in enumerate(members):
            _person(w, f, kind, f"{kind}{i}", d, u)
            w.rel(f, "worksFor", dept)
            if kind in PROFESSORS:
                w.lit(f, "researchInterest", f"Research{rnd.randint(0, 29)}")
            for prop in ("undergraduateDegreeFrom", "mastersDegreeFrom", "doctoralDegreeFrom"):
                w.rel(f, prop, university_iri(rnd.randrange(DEGREE_UNIVERSITIES)))
            mine = teaches.setdefault(f, [])
            for _ in range(between((1, 2))):
                c = f"{dept}/Course{len(courses)}"
                courses.append(c)
                mine.append(c)
            for _ in range(between((1, 2))):
                c = f"{dept}/GraduateCourse{len(grad_courses)}"
                grad_courses.append(c)
                mine.append(c)
    head = rnd.choice(faculty["FullProfessor"])
    w.rel(head, "headOf", dept)
    for f, cs in teaches.items():
        for c in cs:
            w.type(c, "GraduateCourse" if "/GraduateCourse" in c else "Course")
            w.lit(c, "name", c.rsplit("/", 1)[1])
            w.rel(f, "teacherOf", c)

    professors = [f for k in PROFESSORS for f in faculty[k]]
    n_faculty = sum(len(m) for m in faculty.values())
    for i in range(n_faculty * between((8, 14))):
        s = f"{dept}/UndergraduateStudent{i}"
        _person(w, s, "UndergraduateStudent", f"UndergraduateStudent{i}", d, u)
        w.rel(s, "memberOf", dept)
        for c in rnd.sample(courses, min(len(courses), between((2, 4)))):
            w.rel(s, "takesCourse", c)
        if rnd.randrange(5) == 0:
            w.rel(s, "advisor", rnd.choice(professors))

    prof_pubs: list[str] = []
    for kind, members in faculty.items():
        for f in members:
            for p in range(between(FACULTY[kind][1])):
                pub = f"{f}/Publication{p}"
                w.type(pub, "Publication")
                w.lit(pub, "name", f"Publication{p}")
                w.rel(pub, "publicationAuthor", f)
                if kind in PROFESSORS:
                    prof_pubs.append(pub)

    grads = [f"{dept}/GraduateStudent{i}" for i in range(n_faculty * between((3, 4)))]
    ta_every, ra_every = between((4, 5)), between((3, 4))
    for i, s in enumerate(grads):
        _person(w, s, "GraduateStudent", f"GraduateStudent{i}", d, u)
        w.rel(s, "memberOf", dept)
        w.rel(s, "undergraduateDegreeFrom", university_iri(rnd.randrange(DEGREE_UNIVERSITIES)))
        w.rel(s, "advisor", rnd.choice(professors))
        for c in rnd.sample(grad_courses, min(len(grad_courses), between((1, 3)))):
            w.rel(s, "takesCourse", c)
        if rnd.randrange(ta_every) == 0:
            w.type(s, "TeachingAssistant")
            w.rel(s, "teachingAssistantOf", rnd.choice(courses))
        if rnd.randrange(ra_every) == 0:
            w.type(s, "ResearchAssistant")
        for pub in rnd.sample(prof_pubs, min(len(prof_pubs), between((0, 5)))):
            w.rel(pub, "publicationAuthor", s)


def generate(universities: int, out_dir: Path, *, seed: int = 0, departments: int | None = None) -> list[Path]:
    """Write University{u}.nt for u in 0..universities-1 into out_dir; returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for u in range(universities):
        path = out_dir / f"University{u}.nt"
        path.write_text("\n".join(university(u, seed=seed, departments=departments)) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
