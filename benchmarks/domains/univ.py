"""Development domain: Aldermoor University, an invented university described with LUBM's univ-bench schema.

The schema is the real univ-bench ontology (../shared/data/lubm/univ-bench.owl), given unchanged in
Turtle. The instances are a world of our own: one university with a few departments (six by default),
each part of the university, with full, associate and assistant professors and lecturers, graduate and
undergraduate students, undergraduate and graduate courses, research groups inside the departments, and
other universities that awarded the staff's and students' degrees. One full professor heads each
department. `generate(seed)` returns the schema, the gold instances (in the schema's namespace), one
page per department, faculty member, student and course, written the way a university web site writes
them (a biography, an about-me page, a news story, an FAQ, a directory record, a mixed page, a
department page with its staff listing and a course catalogue entry), and questions of thirteen kinds,
open and with options, every answer taken from the generator's records and said on some page.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from benchmarks.domains import DomainData, entity_ttl, in_turn, literal

NS = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#"
SCHEMA_PATH = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "lubm" / "univ-bench.owl"
DEPARTMENTS = 6          # the default number of departments; up to len(DEPTS)
HOME = "Aldermoor University"
MAIL = "aldermoor.example"
PHONE = "(555) 342-{:04d}"
# people per department: (fewest, most) of each rank; students per faculty member
RANKS = (("FullProfessor", 3, 4), ("AssociateProfessor", 4, 5), ("AssistantProfessor", 3, 4), ("Lecturer", 2, 3))
GRADS_PER_FACULTY = (2, 3)
UNDERGRADS_PER_FACULTY = (4, 6)
PROFESSORS = ("FullProfessor", "AssociateProfessor", "AssistantProfessor")
RANK_WORDS = {"FullProfessor": "full professor", "AssociateProfessor": "associate professor",
              "AssistantProfessor": "assistant professor", "Lecturer": "lecturer",
              "GraduateStudent": "graduate student", "UndergraduateStudent": "undergraduate student"}
RANK_PLURAL = {"FullProfessor": "full professors", "AssociateProfessor": "associate professors",
               "AssistantProfessor": "assistant professors", "Lecturer": "lecturers"}


@dataclass(frozen=True)
class Dept:
    short: str
    subject: str
    code: str
    noun: str                      # what one of its academics is called: "a chemist"
    arts: bool                     # B.A./M.A. rather than B.Sc./M.Sc.
    topics: tuple[str, ...]        # research interests
    areas: tuple[str, ...]         # what its courses are about
    groups: tuple[str, ...]        # research groups


def _d(short: str, subject: str, code: str, noun: str, arts: bool, topics: str, areas: str, groups: str) -> Dept:
    return Dept(short, subject, code, noun, arts, tuple(topics.split("|")), tuple(areas.split("|")),
                tuple(groups.split("|")))


DEPTS = (
    _d("chem", "Chemistry", "CHEM", "chemist", False,
       "protein folding|organometallic catalysis|atmospheric aerosols|electrochemical energy storage|"
       "supramolecular assembly|computational spectroscopy|polymer degradation|natural product synthesis|"
       "heterogeneous catalysis on metal surfaces|metalloenzyme mechanisms",
       "Organic Chemistry|Physical Chemistry|Inorganic Chemistry|Analytical Chemistry|Spectroscopy|"
       "Chemical Thermodynamics|Quantum Chemistry|Polymer Chemistry|Biochemistry|Electrochemistry",
       "Catalysis and Synthesis Group|Molecular Spectroscopy Laboratory|Materials Chemistry Group"),
    _d("phys", "Physics", "PHYS", "physicist", False,
       "gravitational-wave astronomy|quantum optics|strongly correlated electrons|plasma confinement|"
       "neutrino oscillations|soft matter|ultracold atoms|the cosmic microwave background|"
       "high-temperature superconductivity|nanophotonics",
       "Classical Mechanics|Electromagnetism|Quantum Mechanics|Statistical Physics|Optics|Solid State Physics|"
       "Particle Physics|Astrophysics|General Relativity|Computational Physics",
       "Quantum Matter Group|Astroparticle Physics Group|Photonics Laboratory"),
    _d("math", "Mathematics", "MATH", "mathematician", False,
       "algebraic geometry|analytic number theory|stochastic processes|nonlinear partial differential equations|"
       "extremal combinatorics|low-dimensional topology|model theory|numerical linear algebra|"
       "chaotic dynamical systems|representations of finite groups",
       "Linear Algebra|Real Analysis|Complex Analysis|Abstract Algebra|Probability|Topology|Number Theory|"
       "Differential Equations|Graph Theory|Numerical Analysis",
       "Algebra and Geometry Group|Applied Analysis Group|Probability and Statistics Group"),
    _d("cs", "Computer Science", "COMP", "computer scientist", False,
       "distributed consensus|programming language semantics|3D scene reconstruction|machine translation|"
       "post-quantum cryptography|database query optimisation|accessible interface design|"
       "formal verification of software|circuit complexity|swarm robotics",
       "Algorithms|Data Structures|Operating Systems|Compilers|Computer Networks|Databases|Machine Learning|"
       "Computer Graphics|Software Engineering|Theory of Computation",
       "Systems and Networking Group|Machine Intelligence Laboratory|Programming Languages Group"),
    _d("bio", "Biology", "BIOL", "biologist", False,
       "coral reef ecology|plant immunity|limb development in vertebrates|microbial evolution|"
       "insect hormones|bird migration|social behaviour of ants|stem cell niches|marine phytoplankton|"
       "population genomics of salmon",
       "Cell Biology|Genetics|Ecology|Evolutionary Biology|Microbiology|Molecular Biology|Plant Biology|"
       "Animal Physiology|Neurobiology|Bioinformatics",
       "Ecology and Evolution Group|Molecular Genetics Group|Marine Biology Unit"),
    _d("hist", "History", "HIST", "historian", True,
       "Hanseatic trade|Atlantic slavery|medieval monasticism|Soviet cultural policy|Ottoman provincial government|"
       "early modern print culture|medicine in the Victorian city|colonial Southeast Asia|the Irish famine|"
       "the campaign for women's suffrage",
       "Medieval History|Early Modern Europe|Modern European History|American History|Economic History|"
       "History of Science|Global History|Ancient Rome|Cold War History|Historiography",
       "Centre for Medieval Studies|Global History Workshop|Oral History Project"),
    _d("ling", "Linguistics", "LING", "linguist", True,
       "tone languages|child language acquisition|historical phonology|sign language syntax|corpus semantics|"
       "language contact|prosody|endangered language documentation|morphological typology|sociophonetics",
       "Phonetics|Phonology|Syntax|Semantics|Pragmatics|Morphology|Sociolinguistics|Historical Linguistics|"
       "Psycholinguistics|Field Methods",
       "Phonetics Laboratory|Language Documentation Group|Syntax and Semantics Group"),
    _d("econ", "Economics", "ECON", "economist", True,
       "labour market discrimination|monetary policy|microfinance|auction design|environmental taxation|"
       "behavioural finance|trade agreements|health insurance markets|industrial organisation|wealth inequality",
       "Microeconomics|Macroeconomics|Econometrics|Game Theory|Public Finance|Labour Economics|"
       "International Economics|Development Economics|Financial Economics|Economic Growth",
       "Applied Microeconomics Group|Macroeconomic Policy Unit|Development Research Group"),
    _d("mech", "Mechanical Engineering", "MECH", "engineer", False,
       "turbulent combustion|fatigue of composite materials|soft robotics|heat exchanger design|"
       "additive manufacturing|vehicle dynamics|wind turbine aerodynamics|tribology|biomechanics of the knee|"
       "microfluidics",
       "Engineering Mechanics|Thermodynamics|Fluid Mechanics|Heat Transfer|Materials Science|Machine Design|"
       "Control Systems|Vibrations|Manufacturing Processes|Finite Element Analysis",
       "Thermofluids Group|Advanced Manufacturing Laboratory|Robotics and Control Group"),
    _d("psyc", "Psychology", "PSYC", "psychologist", False,
       "working memory|adolescent sleep|face perception|decision making under risk|infant speech perception|"
       "anxiety disorders|social conformity|cognitive ageing|reading difficulties|visual attention",
       "Cognitive Psychology|Developmental Psychology|Social Psychology|Biological Psychology|Research Methods|"
       "Perception|Clinical Psychology|Personality|Psychological Statistics|Cognitive Neuroscience",
       "Memory and Attention Laboratory|Child Development Unit|Social Cognition Group"),
    _d("geog", "Geography", "GEOG", "geographer", True,
       "glacial geomorphology|urban heat islands|coastal erosion|migration and borders|river restoration|"
       "remote sensing of forests|food security|political ecology|flood risk|tourism geographies",
       "Physical Geography|Human Geography|Geographic Information Systems|Climatology|Geomorphology|"
       "Urban Geography|Hydrology|Cartography|Biogeography|Development Geography",
       "Glaciers and Landscapes Group|Urban Futures Group|Earth Observation Laboratory"),
    _d("phil", "Philosophy", "PHIL", "philosopher", True,
       "consciousness and perception|virtue ethics|mathematical platonism|epistemic injustice|Kant's aesthetics|"
       "modal logic|environmental ethics|reference and meaning|ancient Greek ethics|free will",
       "Logic|Ethics|Metaphysics|Epistemology|Philosophy of Mind|Political Philosophy|Ancient Philosophy|"
       "Philosophy of Science|Aesthetics|Philosophy of Language",
       "Mind and Cognition Group|Ethics and Society Group|Logic and Language Group"),
)
UG_TITLES = ("{a}", "Introduction to {a}", "Foundations of {a}", "Principles of {a}", "Themes in {a}")
PG_TITLES = ("Advanced {a}", "Graduate Seminar in {a}", "Topics in {a}", "Current Research in {a}",
             "Readings in {a}")
UNIVERSITIES = ("University of Eastmarch", "Kestrel Bay University", "University of Westmoor",
                "Saint Brendan's University", "Calloway Institute of Technology", "Northbridge State University",
                "Ravensholm University", "University of Port Ellery", "Greywater University",
                "University of Marrow Vale", "Ashcombe University", "Lindenfeld Technical University",
                "University of Cape Seraph", "Merriton University", "University of the Southern Reach",
                "Halloran University")
FEMALE = ("Amara Beatriz Chiara Dagny Elif Farida Greta Hana Ingrid Jasmin Keiko Leonie Maren Nadia Olga Priya "
          "Rosalind Saoirse Tamsin Ulla Valentina Wen Yasmin Zofia Adaeze Bronagh Camille Delphine Esther Fiona "
          "Gabriela Helga Isabel Joanna Katarzyna Lucia Miriam Noor Orla Paulina Rachel Sakura Thandiwe Ursula "
          "Vera Wanjiru Ximena Yael Zainab Alicia Brigid Carmen Divya Emma Freya Grace Heidi Ines Julia Kamala").split()
MALE = ("Aarav Bruno Caspar Dmitri Emeka Florian Gustavo Hamid Ivo Jonas Kenji Lorenzo Mateus Nikolai Olumide "
        "Pieter Rafael Stellan Tobias Umar Viktor Wilhelm Xavier Yusuf Zoltan Anders Benedikt Cormac Dario Elias "
        "Fergus Giorgos Henrik Ibrahim Jakob Kwabena Luca Marcus Nathan Oscar Pablo Quentin Rohan Samuel Tariq "
        "Ulrich Vikram Walter Yannis Zeno Arjun Bastian Cillian Declan Eamon Felipe Gideon Hugo Isaac Joaquin").split()
SURNAMES = ("Okafor Lindqvist Moreau Takahashi Brennan Castellano Nowak Haddad Fischer Abernathy Oyelaran Kowalczyk "
            "Delacroix Henriksen Yamamoto Osei Marchetti Petrov Quinlan Rasmussen Santos Thorne Underwood Varga "
            "Whitlock Xu Yilmaz Zimmermann Achterberg Bianchi Chaudhry Dubois Eriksen Ferreira Gallagher Horvath "
            "Ibekwe Jansen Kapoor Lefebvre Mensah Nakamura O'Sullivan Pereira Rossi Schneider Tanaka Vasquez Walsh "
            "Adeyemi Bergstrom Cardoso Dimitrov Esposito Fontaine Gruber Hashemi Iversen Jovanovic Kim Larsen "
            "Moreno Novak Oduya Park Ramirez Sato Tremblay Valdez Weber Ahmadi Baptiste Conti Duarte Engel "
            "Fitzgerald Greco Hoffmann Jensen Kaur Lindgren Murphy Nguyen Olsen Patel Richter Sandoval Toivonen "
            "Umeh Vidal Wagner Yoon Zapata Asante Brandt Costa Dahl Ekstrom Falk Guerrero Halvorsen Igwe Jaramillo "
            "Keller Lopes Meyer Nilsson Ortega Pham Rahman Silva Takeda Uchida Vogel Wojcik Yadav Zhou Aguilar "
            "Banerjee Chen Devlin Eze Fonseca Gunawardena Holm Iqbal Joshi Kovacs Lund Mahlangu Nair Oliveira "
            "Pacheco Reyes Soto Teixeira Vance Ward Young Zielinski Alvarez Boateng Coleman Dunne Estrada Farrell "
            "Gill Hughes Ikeda Kruger Lam Medina Nkosi Owusu Pillai Russo Sharma Tan Vieira Whelan Yates").split()
MONTHS = ("January February March April May June July August September October November December").split()


@dataclass
class Ent:
    key: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)   # property -> Ent, str or a list of Ent
    info: dict[str, Any] = field(default_factory=dict)    # what the pages use but the gold does not hold

    def many(self, prop: str) -> list[Ent]:
        v = self.facts.get(prop, [])
        return v if isinstance(v, list) else [v]


@dataclass
class World:
    home: Ent
    universities: list[Ent]
    depts: list[Ent] = field(default_factory=list)
    groups: list[Ent] = field(default_factory=list)
    faculty: list[Ent] = field(default_factory=list)
    grads: list[Ent] = field(default_factory=list)
    unders: list[Ent] = field(default_factory=list)
    courses: list[Ent] = field(default_factory=list)

    def everything(self) -> list[Ent]:
        return [self.home, *self.universities, *self.depts, *self.groups, *self.faculty, *self.grads,
                *self.unders, *self.courses]

    def having(self, prop: str, target: Ent, among: list[Ent]) -> list[Ent]:
        """The entities of `among` whose `prop` is or includes `target`."""
        return [e for e in among if any(v is target for v in e.many(prop))]

    def staff_of(self, dept: Ent, classes: tuple[str, ...] = (*PROFESSORS, "Lecturer")) -> list[Ent]:
        return [f for f in self.faculty if f.facts["worksFor"] is dept and f.cls in classes]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _prose(uni: Ent) -> str:
    """A university as a sentence names it: "the University of Eastmarch", "Greywater University"."""
    return f"the {uni.label}" if uni.label.startswith("University") else uni.label


def _lower(area: str) -> str:
    """An area inside a sentence: "organic chemistry", but "Cold War history", "American history"."""
    proper = {"American", "European", "Europe", "Rome", "Cold", "War"}
    return " ".join(w if w in proper else w.lower() for w in area.split())


def _date(rng: random.Random) -> str:
    return f"{rng.randint(1, 28)} {rng.choice(MONTHS)} {rng.randint(2023, 2025)}"


# ---------------------------------------------------------------- the world


class People:
    """Unique names drawn without repeats; a department's staff never share a surname."""

    def __init__(self, rng: random.Random):
        pairs = [(f, s) for f in FEMALE + MALE for s in SURNAMES]
        rng.shuffle(pairs)
        self.pairs, self.rng = pairs, rng
        self.numbers = iter(rng.sample(range(1000, 10000), 9000))
        self.keys = iter(rng.sample(range(1, 10000), 9000))
        self.mails: set[str] = set()

    def new(self, cls: str, avoid: set[str] | None = None) -> Ent:
        i = next(i for i, (_, s) in enumerate(self.pairs) if not avoid or s not in avoid)
        first, last = self.pairs.pop(i)
        if avoid is not None:
            avoid.add(last)
        info = {"first": first, "last": last, "she": first in FEMALE}
        return Ent(f"p-{next(self.keys):04d}", f"{first} {last}", cls, info=info)

    def mail(self, e: Ent, host: str, initial: bool) -> str:
        first, last = _slug(e.info["first"]), _slug(e.info["last"]).replace("-", "")
        base = f"{first[0]}.{last}" if initial else f"{first}.{last}"
        address, n = f"{base}@{host}", 1
        while address in self.mails:
            n += 1
            address = f"{base}{n}@{host}"
        self.mails.add(address)
        return address

    def phone(self) -> str:
        return PHONE.format(next(self.numbers))


def _build_world(rng: random.Random, departments: int) -> World:
    if not 1 <= departments <= len(DEPTS):
        raise ValueError(f"departments must be between 1 and {len(DEPTS)}, not {departments}")
    home = Ent("univ-aldermoor", HOME, "University")
    others = [Ent(f"u-{_slug(n)}", n, "University") for n in UNIVERSITIES]
    w = World(home, others)
    people = People(rng)
    for spec in DEPTS[:departments]:
        d = Ent(f"dept-{spec.short}", f"Department of {spec.subject}", "Department", {"subOrganizationOf": home},
                {"spec": spec, "founded": rng.randint(1921, 1988)})
        w.depts.append(d)
        w.groups += [Ent(f"rg-{_slug(g)}", g, "ResearchGroup", {"subOrganizationOf": d}) for g in spec.groups]
        _build_faculty(rng, w, d, people)
        _build_courses(rng, w, d)
        _build_students(rng, w, d, people)
    return w


def _degrees(rng: random.Random, w: World, e: Ent, props: tuple[str, ...]) -> None:
    """Degrees from distinct universities often, from the same one sometimes; now and then from home."""
    last = None
    for prop in props:
        if last is not None and rng.random() < 0.3:
            uni = last
        else:
            uni = w.home if rng.random() < 0.1 else rng.choice(w.universities)
        e.facts[prop] = last = uni


def _build_faculty(rng: random.Random, w: World, d: Ent, people: People) -> None:
    spec, surnames = d.info["spec"], set()
    staff = []
    for cls, low, high in RANKS:
        for _ in range(rng.randint(low, high)):
            f = people.new(cls, surnames)
            f.facts["worksFor"] = d
            staff.append(f)
    topics = rng.sample(spec.topics, len(spec.topics))
    host = f"{spec.short}.{MAIL}"
    for f in staff:
        f.facts["emailAddress"] = people.mail(f, host, True)
        f.facts["telephone"] = people.phone()
        if f.cls != "Lecturer":
            f.facts["researchInterest"] = topics.pop() if topics else rng.choice(spec.topics)
            if rng.random() < 0.75:
                f.facts["memberOf"] = rng.choice([g for g in w.groups if g.facts["subOrganizationOf"] is d])
        doctorate = f.cls != "Lecturer" or rng.random() < 0.6
        _degrees(rng, w, f, ("undergraduateDegreeFrom", "mastersDegreeFrom")
                 + (("doctoralDegreeFrom",) if doctorate else ()))
        first = {"FullProfessor": 1990, "AssociateProfessor": 2000, "AssistantProfessor": 2015, "Lecturer": 2006}
        f.info["since"] = rng.randint(first[f.cls], 2023)
        f.info["title"] = ("Professor" if f.cls == "FullProfessor" else "Dr" if doctorate
                           else ("Ms" if f.info["she"] else "Mr"))
    head = rng.choice([f for f in staff if f.cls == "FullProfessor"])
    head.facts["headOf"] = d
    head.info["head_since"] = rng.randint(max(head.info["since"], 2012), 2024)
    w.faculty += staff


def _build_courses(rng: random.Random, w: World, d: Ent) -> None:
    """Each faculty member teaches one or two undergraduate courses; each professor one or two graduate ones."""
    spec = d.info["spec"]
    titles = {"Course": [(t.format(a=a), a) for t in UG_TITLES for a in spec.areas],
              "GraduateCourse": [(t.format(a=a), a) for t in PG_TITLES for a in spec.areas]}
    for pool in titles.values():
        rng.shuffle(pool)
    numbers = {"Course": iter(rng.sample(range(101, 500), 60)), "GraduateCourse": iter(rng.sample(range(501, 800), 60))}
    for f in w.staff_of(d):
        counts = {"Course": rng.choice([1, 1, 2]) + (f.cls == "Lecturer"),
                  "GraduateCourse": 0 if f.cls == "Lecturer" else rng.choice([1, 1, 2])}
        for cls, n in counts.items():
            for _ in range(n):
                title, area = titles[cls].pop()
                number = next(numbers[cls])
                c = Ent(f"c-{spec.short}-{number}", title, cls,
                        info={"dept": d, "area": area, "code": f"{spec.code} {number}"})
                f.facts.setdefault("teacherOf", []).append(c)
                w.courses.append(c)


def _build_students(rng: random.Random, w: World, d: Ent, people: People) -> None:
    staff = w.staff_of(d)
    profs = [f for f in staff if f.cls in PROFESSORS]
    ug = [c for c in w.courses if c.info["dept"] is d and c.cls == "Course"]
    pg = [c for c in w.courses if c.info["dept"] is d and c.cls == "GraduateCourse"]
    groups = [g for g in w.groups if g.facts["subOrganizationOf"] is d]
    advisors = rng.sample(profs, len(profs))
    n_grads = sum(rng.randint(*GRADS_PER_FACULTY) for _ in staff)
    for i in range(n_grads):
        s = people.new("GraduateStudent")
        adv = advisors[i % len(advisors)]
        s.facts.update({"memberOf": d, "advisor": adv, "takesCourse": rng.sample(pg, rng.randint(1, 3))})
        if "memberOf" in adv.facts and rng.random() < 0.5:
            s.facts["memberOf"] = [d, adv.facts["memberOf"]]
        _degrees(rng, w, s, ("undergraduateDegreeFrom",))
        s.facts["emailAddress"] = people.mail(s, f"students.{MAIL}", False)
        if rng.random() < 0.6:
            s.facts["telephone"] = people.phone()
        if rng.random() < 0.35:
            s.facts["teachingAssistantOf"] = rng.choice(ug)
        s.info.update({"dept": d, "year": rng.randint(1, 5), "groups": groups})
        w.grads.append(s)
    for _ in range(sum(rng.randint(*UNDERGRADS_PER_FACULTY) for _ in staff)):
        s = people.new("UndergraduateStudent")
        s.facts.update({"memberOf": d, "takesCourse": rng.sample(ug, min(len(ug), rng.randint(2, 4)))})
        if rng.random() < 0.25:
            s.facts["advisor"] = rng.choice(profs)
        s.facts["emailAddress"] = people.mail(s, f"students.{MAIL}", False)
        if rng.random() < 0.3:
            s.facts["telephone"] = people.phone()
        s.info.update({"dept": d, "year": rng.randint(1, 4)})
        w.unders.append(s)


# ---------------------------------------------------------------- Turtle


@lru_cache(maxsize=1)
def _schema_ttl() -> str:
    """The univ-bench ontology as Turtle, its blank nodes named canonically so the text is stable."""
    if not SCHEMA_PATH.is_file():
        raise FileNotFoundError(f"the univ-bench ontology is not at {SCHEMA_PATH} (expected ../shared/data/lubm/"
                                "univ-bench.owl beside the repository)")
    import rdflib
    from rdflib.compare import to_canonical_graph

    g = rdflib.Graph()
    g.parse(SCHEMA_PATH, format="xml")
    out = rdflib.Graph()
    out.bind("ub", NS)
    for t in to_canonical_graph(g):
        out.add(t)
    return out.serialize(format="turtle")


def _gold_ttl(w: World) -> str:
    head = (f"@prefix ub: <{NS}> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n")
    out = [head]
    for e in w.everything():
        # every thing has its ub:name, as LUBM's own data gives one (the page that names it says it)
        out.append(entity_ttl("ub", e.key, e.cls, e.label, e.facts, extra=(f"ub:name {literal(e.label)}",)))
    return "\n".join(out)


# ---------------------------------------------------------------- what a page can say


@dataclass
class Claim:
    """One thing a page may say, in the forms the layouts need. Templates name the page's subject with
    {s} (the name the first time, then a shorter name, a description or a pronoun), {h} {o} {p} (its
    pronoun as subject, object, possessive) and take their values from `vals`; `states` are the gold
    triples (subject key, property, object key or literal; "type" for the class) that saying it states."""

    topic: str
    states: tuple[tuple[str, str, str], ...]
    third: tuple[str, ...]
    first: tuple[str, ...] = ()
    slots: tuple[tuple[tuple[str, str], ...], ...] = ()   # directory fields: per field, its (label, value) forms
    asks: tuple[str, ...] = ()                            # FAQ questions; {n} is the subject's name
    vals: dict[str, Any] = field(default_factory=dict)
    core: bool = False                                    # never left off a page
    table: Any = None                                     # a department's staff, for the staff listing


def _slot(labels: str, value: str) -> tuple[tuple[str, str], ...]:
    return tuple((label, value) for label in labels.split("|"))


def _display(e: Ent) -> str:
    """A person as another page names them: staff with their title, students by name."""
    t = e.info.get("title")
    return f"{t} {e.label}" if t in ("Professor", "Dr") else e.label


def _course_ref(c: Ent, rng: random.Random) -> str:
    return rng.choice([c.label, c.label, f"{c.label} ({c.info['code']})"])


def _number(n: int) -> str:
    words = "one two three four five six seven eight nine ten eleven twelve".split()
    return words[n - 1] if 1 <= n <= len(words) else str(n)


def _article(phrase: str) -> str:
    return ("an " if phrase[0] in "aeiou" else "a ") + phrase


def _rank_claim(f: Ent, rng: random.Random) -> Claim:
    d = f.facts["worksFor"]
    subj = d.info["spec"].subject
    rank = "professor" if f.cls == "FullProfessor" and rng.random() < 0.4 else RANK_WORDS[f.cls]
    third = ["{s} is {ar} in the Department of {subj}.", "{s} works in the Department of {subj}, where {h} is {ar}.",
             "{s} has taught in the Department of {subj} since {y} and is currently {ar} there.",
             "At Aldermoor University, {s} is {ar} in the Department of {subj}."]
    first = ["I am {ar} in the Department of {subj} at Aldermoor University.",
             "I joined the Department of {subj} in {y}, and I am now {ar} there.",
             "I work in Aldermoor's Department of {subj} as {ar}."]
    if f.cls == "FullProfessor":
        third.append("{s} is Professor of {subj} at Aldermoor University, in the Department of {subj}.")
        first.append("I am Professor of {subj} here at Aldermoor, in the Department of {subj}.")
    if f.cls == "Lecturer":
        third.append("{s} teaches in the Department of {subj} as a lecturer.")
    return Claim("role", ((f.key, "type", f.cls), (f.key, "worksFor", d.key)), tuple(third), tuple(first),
                 (_slot("Position|Rank|Appointment|Title|Post", string.capwords(rank)),
                  _slot("Department|Home department|Unit|Affiliation", d.label)),
                 ("What is {n}'s position?", "Where does {n} work, and in what role?"),
                 {"ar": _article(rank), "subj": subj, "y": f.info["since"]}, core=True)


def _head_claim(f: Ent) -> Claim:
    d = f.facts["headOf"]
    return Claim("head", ((f.key, "headOf", d.key), (f.key, "worksFor", d.key)),
                 ("{s} is also head of the {D}.", "{s} currently chairs the {D}.",
                  "Since {hy}, {s} has served as head of the {D}.", "{s} leads the {D} as its head."),
                 ("I also serve as head of the {D}.", "Since {hy} I have chaired the {D}.",
                  "I am currently head of the {D}."),
                 (_slot("Head of|Chair of", d.label) + _slot("Administrative role|Leadership role", f"Head, {d.label}"),),
                 ("Does {n} hold an administrative post?", "Is {n} the head of the department?"),
                 {"D": d.label, "hy": f.info["head_since"]}, core=True)


def _research_claim(e: Ent) -> Claim:
    v = e.facts["researchInterest"]
    return Claim("research", ((e.key, "researchInterest", v),),
                 ("{s} works on {v}.", "{p} research focuses on {v}.", "{s} is best known for work on {v}.",
                  "{p} main research interest is {v}.", "Much of {p} recent work concerns {v}."),
                 ("My research is about {v}.", "I work mainly on {v}.", "Most of my research time goes into {v}.",
                  "Above all, I am interested in {v}."),
                 (_slot("Research|Research interests|Areas of expertise|Works on|Research area", v),),
                 ("What does {n} research?", "What is {n}'s research about?"), {"v": v})


def _group_claim(e: Ent, g: Ent) -> Claim:
    return Claim("group", ((e.key, "memberOf", g.key),),
                 ("{s} is a member of the {v}.", "{s} belongs to the department's {v}.", "{s} is part of the {v}."),
                 ("I am a member of the {v}.", "I belong to the {v}.", "I work within the {v}."),
                 (_slot("Research group|Group|Lab|Member of", g.label),),
                 ("Which research group is {n} part of?",), {"v": g.label})


def _contact_claims(e: Ent) -> list[Claim]:
    mail = e.facts["emailAddress"]
    out = [Claim("contact", ((e.key, "emailAddress", mail),),
                 ("{s} can be reached by e-mail at {v}.", "E-mail {o} at {v}.", "{p} e-mail address is {v}.",
                  "Messages for {o} should go to {v}."),
                 ("The best way to reach me is by e-mail: {v}.", "E-mail me at {v}.", "My e-mail address is {v}."),
                 (_slot("E-mail|Email|Mail|Contact", mail),),
                 ("How can I e-mail {n}?", "What is {n}'s e-mail address?"), {"v": mail})]
    if "telephone" in e.facts:
        tel = e.facts["telephone"]
        out.append(Claim("contact", ((e.key, "telephone", tel),),
                         ("{s} can be reached by phone on {v}.", "{p} office line is {v}.", "To speak to {o}, call {v}.",
                          "{s} answers the phone on {v}."),
                         ("You can also call me on {v}.", "My phone number is {v}.", "If you prefer, ring me on {v}."),
                         (_slot("Phone|Tel.|Office line|Telephone", tel),),
                         ("What is {n}'s phone number?", "Can I call {n}?"), {"v": tel}))
    return out


DEGREE_WORDS = {"undergraduateDegreeFrom": ("bachelor's degree", "Bachelor's|Undergraduate degree|First degree"),
                "mastersDegreeFrom": ("master's degree", "Master's|Master's degree|Masters"),
                "doctoralDegreeFrom": ("doctorate", "Doctorate|PhD|Ph.D. from|Doctoral degree")}
DEGREE_THIRD = {
    "undergraduateDegreeFrom": ("{s} read for a bachelor's degree at {v}.", "{s} took {p} first degree at {v}.",
                                "{p} undergraduate degree is from {v}.", "{s} studied as an undergraduate at {v}."),
    "mastersDegreeFrom": ("{s} earned a master's at {v}.", "{s} holds a master's degree from {v}.",
                          "{p} master's degree was awarded by {v}.", "{s} went on to a master's at {v}."),
    "doctoralDegreeFrom": ("{s} earned {p} PhD at {v}.", "{p} doctorate is from {v}.",
                           "{s} completed a doctorate at {v}.", "{s} received {p} Ph.D. from {v}.",
                           "{s} holds a doctoral degree from {v}.")}
DEGREE_FIRST = {
    "undergraduateDegreeFrom": ("I did my undergraduate degree at {v}.", "I studied for my bachelor's at {v}.",
                                "My first degree is from {v}."),
    "mastersDegreeFrom": ("I took my master's at {v}.", "My master's degree comes from {v}.",
                          "After that I did a master's at {v}."),
    "doctoralDegreeFrom": ("I did my PhD at {v}.", "My doctorate is from {v}.",
                           "I completed my doctoral research at {v}.")}
DEGREE_ASKS = {"undergraduateDegreeFrom": "Where did {n} study as an undergraduate?",
               "mastersDegreeFrom": "Where did {n} take a master's degree?",
               "doctoralDegreeFrom": "Where did {n} do a PhD?"}


def _degree_claims(e: Ent, rng: random.Random) -> list[Claim]:
    """A claim per degree, or one for two or three degrees from the same university."""
    by_uni: dict[str, list[str]] = {}
    for prop in DEGREE_WORDS:
        if prop in e.facts:
            by_uni.setdefault(e.facts[prop].key, []).append(prop)
    out = []
    for props in by_uni.values():
        uni = e.facts[props[0]]
        if len(props) > 1 and rng.random() < 0.6:
            out.append(_joint_degree_claim(e, props, uni))
            continue
        for prop in props:
            word, labels = DEGREE_WORDS[prop]
            out.append(Claim("degree", ((e.key, prop, uni.key),), DEGREE_THIRD[prop], DEGREE_FIRST[prop],
                             (_slot(labels, uni.label) + _slot("Education|Degree", f"{_cap(word)}, {uni.label}"),),
                             (DEGREE_ASKS[prop],), {"v": _prose(uni)}))
    return out


def _joint_degree_claim(e: Ent, props: list[str], uni: Ent) -> Claim:
    words = [DEGREE_WORDS[p][0] for p in props]
    both = "all three of {p} degrees" if len(props) == 3 else "both {p} " + " and {p} ".join(words)
    mine = "all three of my degrees" if len(props) == 3 else "both my " + " and my ".join(words)
    label = _cap(_join([w.split()[0] for w in words]))
    return Claim("degree", tuple((e.key, p, uni.key) for p in props),
                 (f"{{s}} earned {both} at {{v}}.", f"{{s}} took {both} at {{v}}.",
                  f"{{v}} awarded {{o}} {both}."),
                 (f"I earned {mine} at {{v}}.", f"I took {mine} at {{v}}."),
                 (_slot(f"{label}|Degrees ({label.lower()})", uni.label),),
                 ("Where did {n} study?",), {"v": _prose(uni)})


def _list_claim(topic: str, states: tuple, value: str, third: tuple, first: tuple, labels: str, asks: tuple) -> Claim:
    return Claim(topic, states, third, first, (_slot(labels, value),), asks, {"v": value})


def _teach_claim(f: Ent, rng: random.Random) -> Claim:
    cs = f.many("teacherOf")
    one = len(cs) == 1
    return _list_claim("teach", tuple((f.key, "teacherOf", c.key) for c in cs), _join([_course_ref(c, rng) for c in cs]),
                       ("{s} teaches {v}.", "This year {s} is teaching {v}.", "{p} teaching this year consists of {v}.",
                        "In the classroom, {s} is responsible for {v}.",
                        "{p} one course this year is {v}." if one else "{p} courses this year are {v}."),
                       ("I teach {v}.", "This year I am teaching {v}.", "My teaching this year: {v}."),
                       "Teaching|Courses|Currently teaching|Courses taught",
                       ("What does {n} teach?", "Which courses does {n} teach?"))


def _advise_claim(f: Ent, w: World) -> Claim | None:
    students = w.having("advisor", f, w.grads + w.unders)
    if not students:
        return None
    one = len(students) == 1
    return _list_claim("advise", tuple((s.key, "advisor", f.key) for s in students), _join([s.label for s in students]),
                       ("{s} supervises {v}.", "{s} currently advises {v}.", "{s} is the advisor of {v}.",
                        "The student {s} supervises is {v}." if one else "The students {s} supervises are {v}."),
                       ("I supervise {v}.", "At the moment I advise {v}.",
                        "My current advisee is {v}." if one else "My current advisees are {v}."),
                       "Advisees|Supervises|Supervised students|Advising",
                       ("Whom does {n} supervise?", "Which students does {n} advise?"))


def _faculty_claims(f: Ent, w: World, rng: random.Random) -> list[Claim]:
    out = [_rank_claim(f, rng)]
    if "headOf" in f.facts:
        out.append(_head_claim(f))
    if "researchInterest" in f.facts:
        out.append(_research_claim(f))
    if "memberOf" in f.facts:
        out.append(_group_claim(f, f.facts["memberOf"]))
    out += _degree_claims(f, rng) + [_teach_claim(f, rng)]
    adv = _advise_claim(f, w)
    return out + ([adv] if adv else []) + _contact_claims(f)


ORDINAL = ("first-year", "second-year", "third-year", "fourth-year", "fifth-year")


def _student_role_claim(s: Ent) -> Claim:
    d, grad = s.info["dept"], s.cls == "GraduateStudent"
    vals = {"subj": d.info["spec"].subject, "yr": ORDINAL[s.info["year"] - 1], "y": 2025 - s.info["year"]}
    if grad:
        third = ("{s} is a graduate student in the Department of {subj}.",
                 "{s} is a {yr} graduate student in the Department of {subj}.",
                 "{s} is working towards a doctorate as a graduate student in the Department of {subj}.",
                 "{s} joined the Department of {subj} as a graduate student in {y}.")
        first = ("I'm a graduate student in the Department of {subj}.",
                 "I am a {yr} PhD student in the Department of {subj}.",
                 "I am a graduate student in Aldermoor's Department of {subj}, working towards my doctorate.")
        status = _slot("Status|Programme|Student type", "Graduate student") + _slot("Level", "Graduate (PhD)")
    else:
        third = ("{s} is an undergraduate student in the Department of {subj}.",
                 "{s} is a {yr} undergraduate in the Department of {subj}.",
                 "{s} is reading for a bachelor's degree as an undergraduate in the Department of {subj}.")
        first = ("I'm a {yr} undergraduate student in the Department of {subj}.",
                 "I'm an undergraduate in the Department of {subj}.",
                 "I'm studying for my bachelor's degree as an undergraduate in the Department of {subj}.")
        status = _slot("Status|Level|Student type", "Undergraduate") + _slot("Year", f"Undergraduate, {vals['yr']}")
    return Claim("role", ((s.key, "type", s.cls), (s.key, "memberOf", d.key)), third, first,
                 (status, _slot("Department|Home department|Affiliation", d.label)),
                 ("What is {n} studying, and where?",), vals, core=True)


def _advisor_claim(s: Ent) -> Claim:
    a = s.facts["advisor"]
    v, states = _display(a), ((s.key, "advisor", a.key),)
    if s.cls == "UndergraduateStudent":
        return Claim("advisor", states, ("{p} academic advisor is {v}.", "{s} is advised by {v}."),
                     ("My academic advisor is {v}.", "{v} is my academic advisor."),
                     (_slot("Academic advisor|Advisor|Personal tutor", v),), ("Who advises {n}?",), {"v": v})
    return Claim("advisor", states,
                 ("{s} is advised by {v}.", "{s} works under the supervision of {v}.", "{p} supervisor is {v}.",
                  "{v} supervises {p} thesis."),
                 ("My advisor is {v}.", "I work under the supervision of {v}.", "I am supervised by {v}.",
                  "{v} supervises my thesis."),
                 (_slot("Supervisor|Advisor|Adviser|Thesis supervisor", v),),
                 ("Who supervises {n}?", "Who is {n}'s advisor?"), {"v": v})


def _taking_claim(s: Ent, rng: random.Random) -> Claim:
    cs = s.many("takesCourse")
    one = len(cs) == 1
    return _list_claim("taking", tuple((s.key, "takesCourse", c.key) for c in cs), _join([_course_ref(c, rng) for c in cs]),
                       ("This term {s} is taking {v}.", "{s} is enrolled in {v}.", "{s} is currently taking {v}.",
                        "{p} only course this term is {v}." if one else "{p} courses this year are {v}."),
                       ("This semester I'm taking {v}.", "I'm enrolled in {v}.",
                        "My only course this term is {v}." if one else "My courses this year are {v}."),
                       "Courses|Enrolled in|Current courses|Registered for|Taking",
                       ("Which courses is {n} taking?", "What is {n} taking this year?"))


def _ta_claim(s: Ent, rng: random.Random) -> Claim:
    c = s.facts["teachingAssistantOf"]
    return _list_claim("ta", ((s.key, "teachingAssistantOf", c.key),), _course_ref(c, rng),
                       ("{s} is a teaching assistant for {v}.", "{s} also helps teach {v} as a teaching assistant.",
                        "{s} runs the tutorials for {v} as its teaching assistant."),
                       ("I am a teaching assistant for {v}.", "I also TA {v}, which I enjoy a lot.",
                        "On the teaching side, I am the teaching assistant for {v}."),
                       "TA for|Teaching assistant for|Assisting on|Teaching duties", ("Does {n} do any teaching?",))


def _student_claims(s: Ent, w: World, rng: random.Random) -> list[Claim]:
    out = [_student_role_claim(s)]
    if "advisor" in s.facts:
        out.append(_advisor_claim(s))
    out.append(_taking_claim(s, rng))
    if "teachingAssistantOf" in s.facts:
        out.append(_ta_claim(s, rng))
    for g in s.many("memberOf")[1:]:
        out.append(_group_claim(s, g))
    return out + _degree_claims(s, rng) + _contact_claims(s)


UG_BLURBS = ("A first look at the central ideas and methods of {a}.",
             "Weekly lectures and {classes} introduce {a} from the ground up.",
             "The course covers the core of {a}, with a written examination at the end of term.",
             "An overview of {a}, assessed by coursework and a final examination.")
PG_BLURBS = ("A research-level course on recent work in {a}; participants present papers and write a term essay.",
             "Students read and discuss current literature in {a} and prepare a short research proposal.",
             "An intensive treatment of {a} for students beginning research in the field.")


def _course_claims(c: Ent, w: World, rng: random.Random) -> list[Claim]:
    d, grad = c.info["dept"], c.cls == "GraduateCourse"
    level = ("{s} is a graduate course in the {D}.", "{s} is a graduate-level course offered by the {D}.",
             "Offered by the {D}, {s} is open to graduate students.") if grad else (
             "{s} is an undergraduate course offered by the {D}.", "{s} is one of the undergraduate courses of the {D}.",
             "Offered by the {D}, {s} is open to undergraduates.")
    classes = "seminars" if d.info["spec"].arts else "problem classes"
    blurb = rng.choice(PG_BLURBS if grad else UG_BLURBS).format(a=_lower(c.info["area"]), classes=classes)
    out = [Claim("level", ((c.key, "type", c.cls),), level, (),
                 (_slot("Level|Course level|Type", "Graduate" if grad else "Undergraduate"),
                  _slot("Offered by|Department", d.label)), ("Who can take {n}?", "What level is {n}?"),
                 {"D": d.label}, core=True),
           Claim("about", (), (blurb,), core=True)]
    teacher = next(f for f in w.faculty if any(x is c for x in f.many("teacherOf")))
    v = _display(teacher)
    out.append(Claim("teacher", ((teacher.key, "teacherOf", c.key),),
                     ("{s} is taught by {v}.", "{v} teaches {s} this year.", "The instructor is {v}.", "{v} leads {s}."),
                     (), (_slot("Instructor|Taught by|Teacher|Course leader|Convenor", v),),
                     ("Who teaches {n}?", "Who is the instructor for {n}?"), {"v": v}, core=True))
    tas = w.having("teachingAssistantOf", c, w.grads)
    if tas:
        one, names = len(tas) == 1, _join([s.label for s in tas])
        out.append(_list_claim("tas", tuple((s.key, "teachingAssistantOf", c.key) for s in tas), names,
                               ("{v} is the teaching assistant.", "Tutorials are run by {v}, the teaching assistant.")
                               if one else ("{v} are the teaching assistants.", "Tutorials are run by {v}."), (),
                               "Teaching assistant|TA" if one else "Teaching assistants|TAs",
                               ("Are there teaching assistants for {n}?",)))
    out += _roster_claim(c, w, rng)
    return out


def _roster_claim(c: Ent, w: World, rng: random.Random) -> list[Claim]:
    takers = w.having("takesCourse", c, w.grads + w.unders)
    if not takers:
        return []
    whole = len(takers) <= 6
    listed = takers if whole else rng.sample(takers, 5)
    return [_list_claim("students", tuple((s.key, "takesCourse", c.key) for s in listed), _join([s.label for s in listed]),
                        ("The students taking {s} this year are {v}.", "Enrolled this year: {v}.") if whole else
                        ("Students taking {s} this year include {v}.", "Among this year's students are {v}."), (),
                        "Enrolled|Class list|Students this year" if whole else "Students include|Among the students",
                        ("Who is taking {n} this year?",))]


def _dept_claims(d: Ent, w: World, rng: random.Random) -> list[Claim]:
    head = next(f for f in w.faculty if f.facts.get("headOf") is d)
    groups = [g for g in w.groups if g.facts["subOrganizationOf"] is d]
    grads = [s for s in w.grads if s.info["dept"] is d]
    v = _display(head)
    out = [Claim("identity", ((d.key, "type", "Department"), (d.key, "subOrganizationOf", w.home.key)),
                 ("{s} is one of the {k} departments of Aldermoor University.",
                  "{s} is part of Aldermoor University and was founded in {y}.",
                  "Founded in {y}, {s} is part of Aldermoor University."), (),
                 (_slot("Part of|University|Institution", HOME), _slot("Founded|Established", str(d.info["founded"]))),
                 ("Which university is {n} part of?",), {"y": d.info["founded"], "k": _number(len(w.depts))}, core=True),
           Claim("head", ((head.key, "headOf", d.key), (head.key, "worksFor", d.key)),
                 ("{s} is headed by {v}.", "{v} is the head of {s}.", "The department's current head is {v}.",
                  "{v} chairs {s}."), (), (_slot("Head of department|Chair|Department head|Head", v),),
                 ("Who is the head of {n}?", "Who leads the department?"), {"v": v}, core=True),
           _list_claim("groups", tuple(s for g in groups for s in ((g.key, "subOrganizationOf", d.key),
                                                                  (g.key, "type", "ResearchGroup"))),
                       _join(["the " + g.label for g in groups]),
                       ("Research in {s} is organised in three groups: {v}.", "{s} is home to {v}.",
                        "{p} research groups are {v}."), (), "Research groups|Groups|Research",
                       ("What research groups does {n} have?",)),
           Claim("count", (), ("There are currently {k} graduate students in {s}.",
                               "{s} has {k} graduate students at present."), (),
                 (_slot("Graduate students|Research students", str(len(grads))),),
                 ("How many graduate students does {n} have?",), {"k": len(grads)})]
    return out + [_staff_claim(d, w)]


def _staff_claim(d: Ent, w: World) -> Claim:
    staff = w.staff_of(d)
    parts = [f"the {RANK_PLURAL[cls] if len(m) > 1 else RANK_WORDS[cls]} "
             f"{'are' if len(m) > 1 else 'is'} {_join([f.label for f in m])}"
             for cls in (*PROFESSORS, "Lecturer") if (m := [f for f in staff if f.cls == cls])]
    text = _cap("; ".join(parts[:-1]) + "; and " + parts[-1]) + "."
    states = tuple(s for f in staff for s in ((f.key, "type", f.cls), (f.key, "worksFor", d.key)))
    return Claim("staff", states, (text, "Among the faculty of {s}, " + text[0].lower() + text[1:]), (), (),
                 ("Who teaches in {n}?", "Who are the department's academic staff?"), {}, core=True, table=staff)


# ---------------------------------------------------------------- layouts


@dataclass
class Ctx:
    kind: str                    # faculty, grad, under, course, dept
    ent: Ent
    name: str                    # the first mention
    short: str                   # later mentions by name
    descs: tuple[str, ...]       # later mentions by description
    pron: tuple[str, str, str]   # subject, object, possessive


def _ctx(kind: str, e: Ent) -> Ctx:
    if kind == "dept":
        return Ctx(kind, e, f"the {e.label}", "the department", (f"the {e.info['spec'].subject.lower()} department",),
                   ("it", "it", "its"))
    if kind == "course":
        return Ctx(kind, e, e.label, e.info["code"], ("the course", "this course"), ("it", "it", "its"))
    pron = ("she", "her", "her") if e.info["she"] else ("he", "him", "his")
    if kind == "faculty":
        spec = e.facts["worksFor"].info["spec"]
        return Ctx(kind, e, e.label, f"{e.info['title']} {e.info['last']}", (f"the {spec.noun}",), pron)
    return Ctx(kind, e, e.label, e.info["first"], ("the student",), pron)


class Voice:
    """Fills one page's templates, naming its subject in full the first time and variously after."""

    def __init__(self, ctx: Ctx, rng: random.Random, named: bool = False):
        self.ctx, self.rng, self.named = ctx, rng, named
        self.descs = list(ctx.descs)   # each description once a page

    def _ref(self, slot: str, leading: bool) -> str:
        c = self.ctx
        if not self.named:
            self.named = True
            return c.name + "'s" if slot == "p" else c.name
        if slot == "s":
            # "it" only as the subject that opens a sentence ("the research groups of it" is not English)
            pron = [c.pron[0], c.pron[0]] if leading or c.pron[0] != "it" else []
            pick = self.rng.choice([c.short, *pron, *self.descs])
            if pick in self.descs:
                self.descs.remove(pick)
            return pick
        return {"h": c.pron[0], "o": c.pron[1], "p": c.pron[2]}[slot]

    def fill(self, template: str, vals: dict[str, Any]) -> str:
        refs: dict[str, str] = {}
        for _, name, _, _ in string.Formatter().parse(template):
            if name in ("s", "h", "o", "p") and name not in refs:
                refs[name] = self._ref(name, template.startswith("{" + name + "}"))
        return _cap(template.format(**vals, **refs))

    def third(self, c: Claim) -> str:
        return self.fill(self.rng.choice(c.third), c.vals)

    def first(self, c: Claim) -> str:
        return self.fill(self.rng.choice(c.first), c.vals)


def _said(claims: list[Claim]) -> list[tuple[str, str, str]]:
    return [t for c in claims for t in c.states]


def _ordered(claims: list[Claim], rng: random.Random, groups: tuple[tuple[str, ...], ...]) -> list[list[Claim]]:
    """The claims in paragraphs by topic (the first group first, the others shuffled), each shuffled
    behind its core claims."""
    paras = []
    for topics in groups:
        inside = [c for c in claims if c.topic in topics]
        core, rest = [c for c in inside if c.core], [c for c in inside if not c.core]
        if topics != ("degree",) or rng.random() < 0.3:   # degrees mostly in the order they were taken
            rng.shuffle(rest)
        if core or rest:
            paras.append(core + rest)
    head, tail = paras[:1], paras[1:]
    rng.shuffle(tail)
    return head + tail


PERSON_PARAS = (("role", "head", "research", "group"), ("degree",), ("teach", "advise", "advisor", "taking", "ta"),
                ("contact",))


def _person_title(ctx: Ctx, rng: random.Random) -> str:
    e = ctx.ent
    forms = [e.label, f"{e.label} | {HOME}", f"{e.label} — {ctx.ent.info.get('dept', e.facts.get('worksFor')).label}"]
    if ctx.kind == "faculty" and e.info["title"] in ("Dr", "Professor"):
        forms.append(f"{e.info['title']} {e.label}")
    return rng.choice(forms)


def _bio(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A third-person biography in paragraphs."""
    v = Voice(ctx, rng)
    title = _person_title(ctx, rng)
    head = rng.choice(["Biography", "Profile", "About", "Background", ""])
    paras = [" ".join(v.third(c) for c in p) for p in _ordered(claims, rng, PERSON_PARAS)]
    return title, "\n\n".join(x for x in [title, head, *paras] if x), _said(claims)


OPENERS = ("Hello, and welcome to my page. I'm {name}.", "Hi! I'm {name}.", "My name is {name}.",
           "Welcome! I'm {name}, and this is my corner of the university web site.")
CLOSERS = {"faculty": ("Prospective graduate students are welcome to get in touch.",
                       "I am always happy to hear from students and colleagues.",
                       "Please write if you would like to collaborate."),
           "grad": ("Thanks for stopping by!", "Feel free to get in touch if our interests overlap.",
                    "Away from my desk I run, cook and read far too many novels."),
           "under": ("Thanks for reading!", "When I'm not studying I play in the university orchestra.",
                     "I'm always happy to chat about student life here.")}


def _aboutme(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A first-person "about me" page."""
    title = rng.choice([ctx.ent.label, f"About me — {ctx.ent.label}", f"{ctx.ent.label}: personal page"])
    head = rng.choice(["About me", "A little about me", "Who I am", "Hello"])
    v = Voice(ctx, rng, named=True)
    paras = [" ".join(v.first(c) for c in p) for p in _ordered(claims, rng, PERSON_PARAS)]
    paras[0] = rng.choice(OPENERS).format(name=ctx.ent.label) + " " + paras[0]
    paras.append(rng.choice(CLOSERS[ctx.kind]))
    return title, "\n\n".join([title, head, *paras]), _said(claims)


def _directory(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A directory record of "label: value" fields, what has no field in a note after it."""
    e = ctx.ent
    head = {"faculty": ("Staff directory", "People finder", "Directory entry"),
            "grad": ("Graduate student directory", "Student profile", "Directory entry"),
            "under": ("Student directory", "Student record", "Directory entry"),
            "course": ("Course record", "Course details", "Course finder")}[ctx.kind]
    fielded = [c for c in claims if c.slots]
    topics = list(dict.fromkeys(c.topic for c in fielded[1:]))
    rng.shuffle(topics)   # one site's order of fields; a topic's fields stay together
    first, rest = fielded[:1], sorted(fielded[1:], key=lambda c: topics.index(c.topic))
    name_label = "Course" if ctx.kind == "course" else rng.choice(["Name", "Full name"])
    lines = [f"{name_label}: {e.label}"] + ([f"Code: {e.info['code']}"] if ctx.kind == "course" else [])
    for c in first + rest:
        lines += ["{}: {}".format(*rng.choice(alts)) for alts in c.slots]
    v = Voice(ctx, rng, named=True)
    notes = [v.third(c) for c in claims if not c.slots]
    text = "\n".join([rng.choice(head), "", *lines]) + ("\n\nNotes: " + " ".join(notes) if notes else "")
    return e.label, text, _said(claims)


def _mixed(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A short introduction, a few fields, then the rest in prose."""
    v = Voice(ctx, rng)
    title = ctx.ent.label if ctx.kind != "dept" else f"{ctx.ent.label}, {HOME}"
    core = [c for c in claims if c.core and c.topic not in ("staff", "teacher")]
    others = [c for c in claims if c not in core]
    rng.shuffle(others)
    boxed = [c for c in others if c.slots][: rng.randint(2, 4)]
    prose = [c for c in others if c not in boxed]
    intro = " ".join(v.third(c) for c in core)
    box = [rng.choice(["At a glance", "Quick facts", "Key information", "In brief"])]
    box += ["{}: {}".format(*rng.choice(alts)) for c in boxed for alts in c.slots]
    more = rng.choice(["More about {n}", "Further details", "In more detail", ""]).format(n=ctx.short)
    body = " ".join(v.third(c) for c in prose)
    parts = [title, intro, "\n".join(box) if boxed else "", more if body else "", body]
    return title, "\n\n".join(p for p in parts if p), _said(claims)


def _faq(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """Questions and answers; what no question covers closes the page."""
    base = ctx.ent.label
    title = rng.choice([f"{base}: frequently asked questions", f"Questions about {ctx.name}", f"{base} — Q&A"])
    v = Voice(ctx, rng)
    intro = [v.third(c) for c in claims if c.core and not c.asks]
    parts = [title, " ".join(intro) or rng.choice(["Answers to the questions we hear most often.",
                                                   "Some common questions, answered."])]
    asked = [c for c in claims if c.asks]
    rng.shuffle(asked)
    qa = rng.choice([("Q:", "A:"), ("Q.", "A."), ("Question:", "Answer:")])
    for c in asked:
        q = rng.choice(c.asks).format(n=ctx.name)
        parts.append(f"{qa[0]} {_cap(q)}\n{qa[1]} {v.third(c)}")
    rest = [v.third(c) for c in claims if not c.asks and not c.core]
    if rest:
        parts.append("Anything else? " + " ".join(rest))
    return title, "\n\n".join(parts), _said(claims)


HEADLINES = {
    "faculty": (("{n} receives university teaching prize",
                 "{n} has been named this year's winner of the Aldermoor Prize for Excellence in Teaching."),
                ("{n} to give this year's public lecture", "{n} will deliver the department's annual public lecture next month."),
                ("Meet our researchers: {n}", "This week the Aldermoor Bulletin talks to {n}."),
                ("{n} elected to the Northern Academy", "{n} has been elected a fellow of the Northern Academy of Letters "
                 "and Sciences.")),
    "grad": (("{n} wins three-minute thesis heat", "{n} took first place in this year's three-minute thesis heat."),
             ("Travel grant for {n}", "{n} has been awarded a travel grant to present new work at a conference abroad."),
             ("Student spotlight: {n}", "Our student spotlight this month falls on {n}.")),
    "course": (("{n} returns with a new syllabus", "{n} has been redesigned for the coming year."),
               ("Record enrolment for {n}", "More students than ever have signed up for {n} this year.")),
    "dept": (("{n} opens refurbished teaching rooms", "{n} has reopened its teaching rooms after a summer of work."),
             ("{n} welcomes its new graduate cohort", "{n} held its welcome day for new graduate students on Monday."),
             ("{n} marks an anniversary", "{n} is celebrating a milestone this autumn with a series of public events.")),
}
QUOTE_TOPICS = ("research", "teach", "taking", "ta", "advisor", "group", "advise")
SPOKESPERSON = ('"We are delighted with how the year has gone," a spokesperson for the department said.',
                '"Our students tell us this is what they want, and we have listened," a department spokesperson said.',
                '"It is a good moment for the department," a university spokesperson said.')


def _news(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A news story: headline, date line, a lead naming the subject, facts in sentences, a quote."""
    head, lead = rng.choice(HEADLINES[ctx.kind])
    title = _cap(head.format(n=ctx.ent.label))
    dateline = rng.choice(["{d} | University News", "Posted on {d} by the Communications Office",
                           "ALDERMOOR, {d}"]).format(d=_date(rng))
    v = Voice(ctx, rng, named=True)
    claims = [c for c in claims if c.table is None]   # a story does not list a department's whole staff
    quotable = [c for c in claims if c.first and c.topic in QUOTE_TOPICS]
    quoted = rng.choice(quotable) if quotable else None
    body = [v.third(c) for c in claims if c is not quoted]
    cut = max(1, len(body) // 2)
    if quoted:
        said_by = rng.choice([ctx.short, ctx.pron[0]])
        quote = f'"{v.first(quoted)[:-1]}," {said_by} said.'
    else:
        quote = rng.choice(SPOKESPERSON)
    paras = [title, dateline, _cap(lead.format(n=ctx.name)) + " " + " ".join(body[:cut]), " ".join(body[cut:]),
             quote, rng.choice(["Aldermoor University News Office", "— Reporting by the Aldermoor Bulletin"])]
    return title, "\n\n".join(p for p in paras if p), _said(claims)


def _staff_table(d: Ent, staff: list[Ent], rng: random.Random) -> tuple[str, list]:
    """The staff as a plain-text table or a list, with the gold triples its columns state."""
    rows = sorted(staff, key=lambda f: f.info["last"]) if rng.random() < 0.5 else staff
    cols = rng.choice([("research", "Research interests"), ("email", "E-mail"), ("phone", "Phone")])
    said, lines = [], []
    rank_head = rng.choice(["Position", "Rank", "Title"])
    full = rng.choice(["Professor", "Full Professor"])   # one site's word for the rank
    for f in rows:
        rank = full if f.cls == "FullProfessor" else string.capwords(RANK_WORDS[f.cls])
        said += [(f.key, "type", f.cls), (f.key, "worksFor", d.key)]
        extra = {"research": f.facts.get("researchInterest", "—"), "email": f.facts["emailAddress"],
                 "phone": f.facts["telephone"]}[cols[0]]
        prop = {"research": "researchInterest", "email": "emailAddress", "phone": "telephone"}[cols[0]]
        if prop in f.facts:
            said.append((f.key, prop, f.facts[prop]))
        lines.append((f.label, rank, extra))
    if rng.random() < 0.5:
        text = "\n".join([f"Name | {rank_head} | {cols[1]}"] + [" | ".join(r) for r in lines])
    else:
        text = "\n".join(f"• {n}, {r.lower()}" + (f" ({x})" if x != "—" else "") if cols[0] == "research"
                         else f"• {n} — {r.lower()} — {x}" for n, r, x in lines)
    return text, said


def _staff_listing(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A department's page: an introduction, its research groups and a staff listing."""
    v = Voice(ctx, rng)
    d = ctx.ent
    title = rng.choice([d.label, f"{d.label} | {HOME}", f"Welcome to the {d.label}"])
    staff = next(c for c in claims if c.table)
    rest = [c for c in claims if c is not staff]
    intro = " ".join(v.third(c) for c in rest if c.topic in ("identity", "head", "count"))
    groups = " ".join(v.third(c) for c in rest if c.topic == "groups")
    table, said = _staff_table(d, staff.table, rng)
    people = rng.choice(["People", "Our faculty", "Academic staff", "Faculty directory"])
    foot = rng.choice(["The departmental office is open on weekdays from 9 to 5.",
                       "Visitors are welcome; please call at the departmental office on arrival.", ""])
    parts = [title, intro, groups, f"{people}\n{table}", foot]
    return title, "\n\n".join(p for p in parts if p), _said(rest) + said


def _catalogue(ctx: Ctx, claims: list[Claim], rng: random.Random) -> tuple[str, str, list]:
    """A course catalogue entry written as prose."""
    c = ctx.ent
    title = rng.choice([f"COURSE: {c.label}", f"{c.info['code']} — {c.label}", f"{c.info['code']}: {c.label}"])
    v = Voice(ctx, rng)
    order = ("level", "about", "teacher", "tas", "students")
    by_topic = {c_.topic: c_ for c_ in claims}
    body = [v.third(by_topic[t]) for t in order if t in by_topic]
    tail = rng.choice(["Credit: one unit.", "Assessment: coursework and a final paper.",
                       "Meets twice a week in the autumn term.", ""])
    text = title + "\n\n" + " ".join(body) + ("\n\n" + tail if tail else "")
    return c.label if title.startswith("COURSE") else title, text, _said(claims)


RENDER = {"bio": _bio, "aboutme": _aboutme, "news": _news, "faq": _faq, "directory": _directory, "mixed": _mixed,
          "staff_listing": _staff_listing, "catalogue": _catalogue}
LAYOUTS = {"faculty": (("bio", 4), ("aboutme", 3), ("directory", 2), ("mixed", 2), ("news", 1), ("faq", 1)),
           "grad": (("bio", 3), ("aboutme", 3), ("directory", 2), ("mixed", 2), ("news", 1), ("faq", 1)),
           "under": (("aboutme", 3), ("directory", 3), ("bio", 2), ("mixed", 1)),
           "course": (("catalogue", 5), ("faq", 2), ("mixed", 2), ("directory", 1), ("news", 1))}
DEPT_LAYOUTS = ("staff_listing", "staff_listing", "mixed", "faq", "staff_listing", "news")


def _pages(w: World, rng: random.Random) -> tuple[list[dict[str, Any]], set]:
    """One page per department, faculty member, student and course; most pages leave some optional
    facts out. Also every gold triple some page says."""
    said: set = set()
    pages = []
    plan = [("dept", w.depts, _dept_claims), ("faculty", w.faculty, _faculty_claims),
            ("grad", w.grads, _student_claims), ("under", w.unders, _student_claims),
            ("course", w.courses, _course_claims)]
    dept_layouts = list(DEPT_LAYOUTS)
    rng.shuffle(dept_layouts)
    for kind, ents, make in plan:
        for i, e in enumerate(ents):
            claims = [c for c in make(e, w, rng) if c.core or rng.random() < 0.8]
            if kind == "dept":
                layout = dept_layouts[i % len(dept_layouts)]
            else:
                names, weights = zip(*LAYOUTS[kind])
                layout = rng.choices(names, weights=weights)[0]
            title, text, states = RENDER[layout](_ctx(kind, e), claims, rng)
            said.update(states)
            page_id = {"course": f"course-{_slug(e.info.get('code', ''))}", "dept": e.key}.get(kind, f"{kind}-{_slug(e.label)}")
            pages.append({"id": page_id, "title": title, "text": text, "about": NS + e.key, "layout": layout})
    return pages, said


# ---------------------------------------------------------------- questions
# A candidate: open phrasings and phrasings with options ({x} the entity asked about), x, the answer (a
# list when several), the pool its wrong options come from, and whether it is asked open, with options
# or either. Each kind gives groups of candidates, one per sort of question, taken from in turn.


def _cand(q: tuple[str, ...], x: str, a: str | list[str], pool: list[str], qo: tuple[str, ...] | None = None,
          mode: str = "both") -> dict[str, Any]:
    if isinstance(a, list) and len(a) == 1:
        a = a[0]
    return {"q": q, "qo": qo or q, "x": x, "a": a, "pool": pool, "mode": mode}


def _all(said: set, triples: list[tuple[str, str, str]]) -> bool:
    return bool(triples) and all(t in said for t in triples)


def _dept_of(e: Ent) -> Ent:
    return e.facts["worksFor"] if "worksFor" in e.facts else e.info["dept"]


def _labels(ents: list[Ent]) -> list[str]:
    return [e.label for e in ents]


def _near(n: int) -> list[str]:
    return [str(n + k) for k in (-3, -2, -1, 1, 2, 3) if n + k > 0]


def _q_contact(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    people = w.faculty + w.grads + w.unders
    mails = [p.facts["emailAddress"] for p in people]
    phones = [p.facts["telephone"] for p in people if "telephone" in p.facts]
    return [
        [_cand(("What is {x}'s e-mail address?", "How can I contact {x} by e-mail?", "Which e-mail address reaches {x}?"),
               p.label, p.facts["emailAddress"], mails)
         for p in people if (p.key, "emailAddress", p.facts["emailAddress"]) in said],
        [_cand(("What is {x}'s telephone number?", "Which number should I call to reach {x}?"),
               p.label, p.facts["telephone"], phones)
         for p in people if "telephone" in p.facts and (p.key, "telephone", p.facts["telephone"]) in said],
    ]


def _q_advisor(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    def sort(students: list[Ent], q: tuple[str, ...]) -> list[dict]:
        return [_cand(q, s.label, s.facts["advisor"].label, _labels(w.staff_of(s.info["dept"], PROFESSORS)))
                for s in students if "advisor" in s.facts and (s.key, "advisor", s.facts["advisor"].key) in said]
    return [sort(w.grads, ("Who supervises {x}?", "Who is {x}'s advisor?", "Under whose supervision is {x} working?")),
            sort(w.unders, ("Who is the academic advisor of {x}?", "Which professor advises {x}?"))]


def _q_degree(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    unis = _labels([w.home, *w.universities])
    asks = {"doctoralDegreeFrom": ("Where did {x} get a PhD?", "Which university awarded {x}'s doctorate?",
                                   "From which university does {x} hold a doctoral degree?"),
            "mastersDegreeFrom": ("Which university awarded {x}'s master's degree?", "Where did {x} earn a master's?"),
            "undergraduateDegreeFrom": ("Where did {x} take an undergraduate degree?",
                                        "Which university gave {x} a bachelor's degree?")}
    return [[_cand(q, p.label, p.facts[prop].label, unis) for p in w.faculty + w.grads
             if prop in p.facts and (p.key, prop, p.facts[prop].key) in said] for prop, q in asks.items()]


def _q_affiliation(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    depts, groups = _labels(w.depts), _labels(w.groups)
    staff = [_cand(("Which department does {x} work for?", "In which department is {x} on the staff?"), f.label,
                   f.facts["worksFor"].label, depts) for f in w.faculty if (f.key, "worksFor", f.facts["worksFor"].key) in said]
    students = [_cand(("Which department does {x} belong to?", "Which department is {x} a student in?"), s.label,
                      s.info["dept"].label, depts) for s in w.grads + w.unders if (s.key, "memberOf", s.info["dept"].key) in said]
    members = [_cand(("Which research group is {x} a member of?", "Which research group does {x} belong to?"), p.label,
                     g.label, groups) for p in w.faculty + w.grads for g in p.many("memberOf")
               if g.cls == "ResearchGroup" and (p.key, "memberOf", g.key) in said]
    return [staff, students, members]


def _q_teaching(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    def dept_courses(d: Ent, cls: str | None = None) -> list[str]:
        return [c.label for c in w.courses if c.info["dept"] is d and cls in (None, c.cls)]
    teaches = [_cand(("Which courses does {x} teach?", "What does {x} teach?"), f.label, _labels(f.many("teacherOf")),
                     dept_courses(f.facts["worksFor"]), qo=("Which of these courses does {x} teach?",))
               for f in w.faculty if _all(said, [(f.key, "teacherOf", c.key) for c in f.many("teacherOf")])]
    who = [_cand(("Who teaches {x}?", "Who is the instructor for {x}?"), c.label, f.label,
                 _labels(w.staff_of(f.facts["worksFor"]))) for f in w.faculty for c in f.many("teacherOf")
           if (f.key, "teacherOf", c.key) in said]
    tas = [_cand(("Which course is {x} a teaching assistant for?", "Which course does {x} assist with as a TA?"), s.label,
                 s.facts["teachingAssistantOf"].label, dept_courses(s.info["dept"], "Course"))
           for s in w.grads if "teachingAssistantOf" in s.facts
           and (s.key, "teachingAssistantOf", s.facts["teachingAssistantOf"].key) in said]
    return [teaches, who, tas]


def _q_taking(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    def sort(students: list[Ent], cls: str) -> list[dict]:
        return [_cand(("Which courses is {x} taking?", "What courses is {x} enrolled in?"), s.label,
                      _labels(s.many("takesCourse")),
                      [c.label for c in w.courses if c.info["dept"] is s.info["dept"] and c.cls == cls],
                      qo=("Which of these courses is {x} taking?",)) for s in students
                if _all(said, [(s.key, "takesCourse", c.key) for c in s.many("takesCourse")])]
    return [sort(w.grads, "GraduateCourse"), sort(w.unders, "Course")]


def _q_head(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    heads = [(next(f for f in w.faculty if f.facts.get("headOf") is d), d) for d in w.depts]
    heads = [(h, d) for h, d in heads if (h.key, "headOf", d.key) in said]
    return [[_cand(("Who is the head of the {x}?", "Who chairs the {x}?", "Who leads the {x} as its head?"), d.label,
                   h.label, _labels(w.staff_of(d, ("FullProfessor", "AssociateProfessor"))) + _labels([x for x, _ in heads]))
             for h, d in heads],
            [_cand(("Which department does {x} head?", "Which department is {x} the head of?"), h.label, d.label,
                   _labels(w.depts)) for h, d in heads]]


def _q_research(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    return [[_cand(("What is {x}'s research interest?", "What does {x} research?", "Which topic does {x} work on?"),
                   f.label, f.facts["researchInterest"], list(f.facts["worksFor"].info["spec"].topics))
             for f in w.faculty if "researchInterest" in f.facts
             and (f.key, "researchInterest", f.facts["researchInterest"]) in said]]


def _q_rank(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    ranks = [RANK_WORDS[c] for c in (*PROFESSORS, "Lecturer")]
    typed = [f for f in w.faculty if (f.key, "type", f.cls) in said]
    position = [_cand(("What is {x}'s position?", "What rank does {x} hold?", "What is {x}'s academic rank?"), f.label,
                      RANK_WORDS[f.cls], ranks) for f in typed]
    level = [_cand(("Is {x} a graduate or an undergraduate student?", "What kind of student is {x}?"), s.label,
                   RANK_WORDS[s.cls], [], mode="open") for s in w.grads + w.unders if (s.key, "type", s.cls) in said]
    one, several = [], []
    for d in w.depts:
        for cls in (*PROFESSORS, "Lecturer"):
            members = [f for f in typed if f.cls == cls and f.facts["worksFor"] is d]
            others = _labels([f for f in typed if f.cls != cls and f.facts["worksFor"] is d])
            one += [_cand((f"Which of these people is {_article(RANK_WORDS[cls])}?",), "", m.label, others,
                          mode="options") for m in members]
            if len(members) >= 2:
                several.append(_cand((f"Which of these people in the {d.label} are {RANK_PLURAL[cls]}?",), "",
                                     _labels(members), others, mode="options"))
    return [position, level, one, several]


def _q_class_list(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    """Lists of staff by class, through the hierarchy: professors are all three ranks, faculty all four."""
    sorts = [(PROFESSORS, "professors"), ((*PROFESSORS, "Lecturer"), "faculty members"), (("Lecturer",), "lecturers"),
             (("AssistantProfessor",), "assistant professors"), (("AssociateProfessor",), "associate professors"),
             (("FullProfessor",), "full professors")]
    out = []
    for classes, words in sorts:
        group = []
        for d in w.depts:
            members = w.staff_of(d, classes)
            if not _all(said, [t for f in members for t in ((f.key, "type", f.cls), (f.key, "worksFor", d.key))]):
                continue
            near = _labels([f for f in w.staff_of(d) if f.cls not in classes] or
                           [s for s in w.grads if s.info["dept"] is d])
            far = _labels([f for f in w.faculty if f.facts["worksFor"] is not d and f.cls in classes])
            group.append(_cand((f"Which {words} work for the {{x}}?", f"Who are the {words} of the {{x}}?"), d.label,
                               _labels(members), near + rng.sample(far, min(2, len(far))),
                               qo=(f"Which of these people are {words} in the {{x}}?",)))
        out.append(group)
    return out


def _q_count(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    def count(q: tuple[str, ...], x: str, triples: list, n: int) -> list[dict]:
        return [_cand(q, x, str(n), _near(n))] if n and _all(said, triples) else []
    grads, profs, staff, teach, advise, takes = [], [], [], [], [], []
    for d in w.depts:
        gs = [s for s in w.grads if s.info["dept"] is d]
        grads += count(("How many graduate students are members of the {x}?", "How many graduate students does the {x} have?"),
                       d.label, [t for s in gs for t in ((s.key, "type", s.cls), (s.key, "memberOf", d.key))], len(gs))
        for group, classes, q in ((profs, PROFESSORS, ("How many professors work for the {x}?",
                                                        "How many professors are there in the {x}?")),
                                  (staff, (*PROFESSORS, "Lecturer"), ("How many faculty members work in the {x}?",))):
            fs = w.staff_of(d, classes)
            group += count(q, d.label, [t for f in fs for t in ((f.key, "type", f.cls), (f.key, "worksFor", d.key))],
                           len(fs))
    for f in w.faculty:
        cs, st = f.many("teacherOf"), w.having("advisor", f, w.grads + w.unders)
        teach += count(("How many courses does {x} teach?", "How many courses is {x} teaching this year?"), f.label,
                       [(f.key, "teacherOf", c.key) for c in cs], len(cs))
        advise += count(("How many students does {x} advise?", "How many students is {x} supervising?"), f.label,
                        [(s.key, "advisor", f.key) for s in st], len(st))
    for s in w.grads:
        cs = s.many("takesCourse")
        takes += count(("How many courses is {x} taking?",), s.label, [(s.key, "takesCourse", c.key) for c in cs], len(cs))
    return [grads, profs, staff, teach, advise, takes]


def _q_two_hop(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    unis = _labels([w.home, *w.universities])
    heads = {d.key: next(f for f in w.faculty if f.facts.get("headOf") is d) for d in w.depts}
    doctor, research, boss, ta_teacher = [], [], [], []
    for s in w.grads:
        a = s.facts["advisor"]
        if (s.key, "advisor", a.key) not in said:
            continue
        if "doctoralDegreeFrom" in a.facts and (a.key, "doctoralDegreeFrom", a.facts["doctoralDegreeFrom"].key) in said:
            doctor.append(_cand(("Where did {x}'s advisor get their doctorate?",
                                 "Which university awarded a PhD to the person who supervises {x}?"), s.label,
                                a.facts["doctoralDegreeFrom"].label, unis))
        if (a.key, "researchInterest", a.facts["researchInterest"]) in said:
            research.append(_cand(("What does {x}'s supervisor research?", "What is the research interest of {x}'s advisor?"),
                                  s.label, a.facts["researchInterest"], list(s.info["dept"].info["spec"].topics)))
    for p in w.faculty + w.grads:
        d, prop = _dept_of(p), "worksFor" if p in w.faculty else "memberOf"
        h = heads[d.key]
        if h is not p and (p.key, prop, d.key) in said and (h.key, "headOf", d.key) in said:
            q = (("Who heads the department that {x} works for?", "Who is the head of {x}'s department?") if prop == "worksFor"
                 else ("Who heads the department {x} belongs to?", "Who is the head of the department {x} studies in?"))
            boss.append(_cand(q, p.label, h.label, _labels(w.staff_of(d, ("FullProfessor",))) + _labels(list(heads.values()))))
    for s in w.grads:
        c = s.facts.get("teachingAssistantOf")
        t = next((f for f in w.faculty if c is not None and any(x is c for x in f.many("teacherOf"))), None)
        if t and (s.key, "teachingAssistantOf", c.key) in said and (t.key, "teacherOf", c.key) in said:
            ta_teacher.append(_cand(("Who teaches the course that {x} is a teaching assistant for?",), s.label, t.label,
                                    _labels(w.staff_of(_dept_of(t)))))
    return [doctor, research, boss, ta_teacher]


def _q_inverse_list(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    students = w.grads + w.unders
    advisees = [_cand(("Which students does {x} advise?", "Whom does {x} supervise?"), f.label, _labels(st),
                      _labels([s for s in students if s.info["dept"] is f.facts["worksFor"] and s not in st]),
                      qo=("Which of these students does {x} advise?",))
                for f in w.faculty if (st := w.having("advisor", f, students))
                and _all(said, [(s.key, "advisor", f.key) for s in st])]
    tas, takers = [], []
    for c in w.courses:
        ts = w.having("teachingAssistantOf", c, w.grads)
        mates = _labels([s for s in w.grads if s.info["dept"] is c.info["dept"] and s not in ts])
        if ts and _all(said, [(s.key, "teachingAssistantOf", c.key) for s in ts]):
            tas.append(_cand(("Who are the teaching assistants for {x}?", "Which students assist with teaching {x}?"),
                             c.label, _labels(ts), mates, qo=("Which of these students are teaching assistants for {x}?",)))
        tk = w.having("takesCourse", c, students)
        if 2 <= len(tk) <= 8 and _all(said, [(s.key, "takesCourse", c.key) for s in tk]):
            takers.append(_cand(("Which students are taking {x}?", "Who is enrolled in {x}?"), c.label, _labels(tk),
                                _labels([s for s in students if s.info["dept"] is c.info["dept"] and s not in tk]),
                                qo=("Which of these students are taking {x}?",)))
    groups = [_cand(("Which research groups belong to the {x}?", "What research groups does the {x} have?"), d.label,
                    _labels(gs), _labels([g for g in w.groups if g not in gs]),
                    qo=("Which of these research groups are part of the {x}?",))
              for d in w.depts if (gs := w.having("subOrganizationOf", d, w.groups))
              and _all(said, [(g.key, "subOrganizationOf", d.key) for g in gs])]
    return [advisees, tas, takers, groups]


KINDS = {"contact": _q_contact, "advisor": _q_advisor, "degree": _q_degree, "affiliation": _q_affiliation,
         "teaching": _q_teaching, "taking": _q_taking, "head": _q_head, "research": _q_research, "rank": _q_rank,
         "class_list": _q_class_list, "count": _q_count, "two_hop": _q_two_hop, "inverse_list": _q_inverse_list}


def _options(c: dict, rng: random.Random) -> tuple[list[str], list[int]] | None:
    """Four options with one right, or a few right (at most three of a long list) among wrong ones."""
    gold = c["a"] if isinstance(c["a"], list) else [c["a"]]
    wrong = [p for p in dict.fromkeys(c["pool"]) if p not in gold]
    picks = gold if len(gold) == 1 else rng.sample(gold, min(3, len(gold)))
    n = 3 if len(picks) == 1 else max(2, 5 - len(picks))
    if len(wrong) < n:
        return None
    opts = picks + rng.sample(wrong, n)
    rng.shuffle(opts)
    return opts, sorted(opts.index(g) for g in picks)


def _questions(w: World, said: set, rng: random.Random, per_kind: int = 6) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, make in KINDS.items():
        order = in_turn(make(w, said, rng), rng)
        opens = [c for c in order if c["mode"] != "options"][:per_kind]
        rows = [{"type": "open", "question": rng.choice(c["q"]).format(x=c["x"]), "answer": c["a"]} for c in opens]
        for c in order:
            if len(rows) == len(opens) + per_kind:
                break
            if c["mode"] == "open" or any(c is o for o in opens) or not (made := _options(c, rng)):
                continue
            options, answers = made
            rows.append({"type": "MAQ" if len(answers) > 1 else "MCQ", "question": rng.choice(c["qo"]).format(x=c["x"]),
                         "options": options, "answers": answers})
        out += [{"id": f"univ-{kind}-{i + 1:02d}", "kind": kind, **r} for i, r in enumerate(rows)]
    return out


def generate(seed: int = 7, departments: int = DEPARTMENTS) -> DomainData:
    rng = random.Random(seed)
    world = _build_world(rng, departments)
    pages, said = _pages(world, rng)
    return DomainData(name="univ", schema_ttl=_schema_ttl(), gold_ttl=_gold_ttl(world), pages=pages,
                      questions=_questions(world, said, rng))
