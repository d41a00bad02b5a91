"""Development domain for analytical questions: a hardware maker's catalogue and staff.

Products of several kinds (laptops, monitors, printers, headsets) with prices in euros, weights in
kilograms, widths in centimetres, release dates and, for some, a warranty; products are built from
parts, each part comes from a supplier in a city of a country; staff work in departments, report to
other staff, and some departments have a head. `build(seed)` makes the instances, `schema_ttl` and `instances_ttl` write them, and
`catalogue_questions` asks questions of many kinds (superlatives, top-k, filters, counts, aggregates, groups,
negation, yes/no, several attributes, names as people write them, derived values), each with its gold
rows computed from the generator's own records — never by the code under test.

Gold rows: a list of tuples, one per answer; a tuple lists the values one answer row must hold
(IRIs, or literals as the store writes them). `"abstain"` questions have no gold rows: the right
outcome is no answer (the plan language cannot say them).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from benchmarks.domains import literal, property_ttl

NS = "http://example.org/catalogue#"
PREFIXES = (f"@prefix c: <{NS}> .\n"
            "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n")

# (local name, parent, label, comment)
CLASSES = [
    ("Product", None, "product", "Something the company sells to its customers."),
    ("Laptop", "Product", "laptop", "A portable computer with a built-in screen and keyboard."),
    ("Monitor", "Product", "monitor", "A display screen connected to a computer."),
    ("Printer", "Product", "printer", "A device that puts documents on paper."),
    ("Headset", "Product", "headset", "Headphones with a microphone."),
    ("Part", None, "part", "A component that goes into products."),
    ("Supplier", None, "supplier", "A firm that delivers parts to the company."),
    ("City", None, "city", "A town or city where a firm is based."),
    ("Country", None, "country", "A sovereign country."),
    ("Employee", None, "employee", "A person on the company's staff."),
    ("Department", None, "department", "An organisational unit of the company."),
]

# (local name, object?, domain, range, label, comment, inverse)
PROPS = [
    ("hasPart", True, "Product", "Part", "has part", "A part the product is built from.", None),
    ("suppliedBy", True, "Part", "Supplier", "is supplied by", "The firm that delivers the part.", None),
    ("basedIn", True, "Supplier", "City", "is based in", "The city where the supplier has its seat.", None),
    ("inCountry", True, "City", "Country", "lies in country", "The country the city belongs to.", None),
    ("worksIn", True, "Employee", "Department", "works in", "The department the employee belongs to.", None),
    ("reportsTo", True, "Employee", "Employee", "reports to", "The employee's line manager.", None),
    ("headedBy", True, "Department", "Employee", "is headed by", "The employee in charge of the department.", None),
    ("price", False, "Product", "xsd:decimal", "list price", "The price in euros, before discounts.", None),
    ("weight", False, "Product", "xsd:decimal", "weight", "The product's weight in kilograms.", None),
    ("width", False, "Product", "xsd:decimal", "width", "The product's width in centimetres.", None),
    ("releaseDate", False, "Product", "xsd:date", "release date", "The day the product went on sale.", None),
    ("warrantyMonths", False, "Product", "xsd:integer", "warranty period",
     "How many months the warranty lasts; products sold without one have none.", None),
    ("unitCost", False, "Part", "xsd:decimal", "unit cost", "What one part costs the company, in euros.", None),
    ("email", False, "Employee", "xsd:string", "e-mail address", "Where to write to the employee.", None),
    ("phone", False, "Employee", "xsd:string", "phone number", "The employee's desk line, where they have one.", None),
    ("jobTitle", False, "Employee", "xsd:string", "job title", "The employee's role.", None),
    ("hireDate", False, "Employee", "xsd:date", "hire date", "The day the employee joined.", None),
    ("foundedYear", False, "Supplier", "xsd:integer", "year founded", "The year the supplier was set up.", None),
]

COUNTRIES = {"NL": "Netherlands", "BE": "Belgium", "FR": "France", "DE": "Germany", "PL": "Poland"}
CITIES = [("Utrecht", "NL"), ("Eindhoven", "NL"), ("Ghent", "BE"), ("Lyon", "FR"), ("Lille", "FR"),
          ("Dresden", "DE"), ("Wroclaw", "PL")]
SUPPLIERS = [("Voltwerk", "Eindhoven", 1987), ("Brightcell", "Ghent", 2004), ("Maison Circuit", "Lille", 1996),
             ("Elbe Components", "Dresden", 1979), ("Odra Plastics", "Wroclaw", 2011), ("Kanal Optics", "Utrecht", 2015)]
PARTS = [("lithium battery pack", 38.0), ("aluminium chassis", 54.5), ("IPS panel", 71.0), ("toner drum", 22.0),
         ("cooling fan", 6.5), ("mainboard", 120.0), ("speaker driver", 9.0), ("ear cushion set", 4.25),
         ("power adapter", 15.0), ("LED backlight", 18.0), ("paper feed roller", 3.75), ("keyboard module", 27.0)]
# product kind → (name stems, price range, weight range, width range, part names)
KINDS = {
    "Laptop": (["Aster", "Bramble", "Cinder", "Dune", "Ember", "Fjord", "Garnet", "Heron"], (640, 2400), (0.95, 2.8),
               (29, 38), ["lithium battery pack", "aluminium chassis", "mainboard", "cooling fan", "keyboard module",
                          "power adapter"]),
    "Monitor": (["Vista", "Prism", "Lumen", "Quartz", "Solace", "Tidal"], (150, 1100), (2.9, 8.5), (48, 82),
                ["IPS panel", "LED backlight", "power adapter"]),
    "Printer": (["Ledger", "Quill", "Scribe", "Folio", "Margin"], (90, 780), (4.5, 17.0), (38, 60),
                ["toner drum", "paper feed roller", "mainboard", "power adapter"]),
    "Headset": (["Echo", "Murmur", "Chorus", "Cadence", "Whistle", "Hush"], (35, 320), (0.18, 0.42), (15, 21),
                ["speaker driver", "ear cushion set", "lithium battery pack"]),
}
DEPARTMENTS = ["Finance", "Engineering", "Sales", "Logistics", "Customer Care", "Legal"]
FIRST = ["Maria", "Tomas", "Ingrid", "Kofi", "Lena", "Pavel", "Amira", "Jonas", "Sofia", "Ruben", "Hana", "Oskar",
         "Noor", "Felix", "Clara", "Emil", "Yara", "Luca", "Ada", "Viktor", "Ines", "Bram"]
LAST = ["Novak", "Berg", "Okafor", "Lindqvist", "Moreau", "Haddad", "Visser", "Kowalski", "Duarte", "Ferreira",
        "Janssen", "Ito", "Brandt", "Rossi", "Peeters", "Nowak", "Silva", "Meyer", "Dubois", "Kaya", "Wolff", "Costa"]
TITLES = ["analyst", "engineer", "account manager", "planner", "specialist", "lawyer"]


@dataclass
class Thing:
    iri: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)      # datatype property → value
    links: dict[str, list[str]] = field(default_factory=dict)  # object property → IRIs


@dataclass
class Catalogue:
    things: dict[str, Thing]

    def of(self, cls: str) -> list[Thing]:
        subs = {cls} | {c for c, parent, _, _ in CLASSES if parent == cls}
        return [t for t in self.things.values() if t.cls in subs]


def _iri(label: str) -> str:
    return NS + "".join(w.capitalize() for w in label.replace("-", " ").split())


def build(seed: int = 11) -> Catalogue:
    """The instances, from the seed alone."""
    rnd = random.Random(seed)
    things: dict[str, Thing] = {}

    def add(label: str, cls: str, **facts: Any) -> Thing:
        t = Thing(_iri(label), label, cls, dict(facts))
        things[t.iri] = t
        return t

    for name in COUNTRIES.values():
        add(name, "Country")
    for city, code in CITIES:
        add(city, "City").links["inCountry"] = [_iri(COUNTRIES[code])]
    for name, city, year in SUPPLIERS:
        add(name, "Supplier", foundedYear=year).links["basedIn"] = [_iri(city)]
    for i, (name, cost) in enumerate(PARTS):
        add(name, "Part", unitCost=cost).links["suppliedBy"] = [_iri(SUPPLIERS[i % len(SUPPLIERS)][0])]
    for kind, (stems, prices, weights, widths, parts) in KINDS.items():
        for n, stem in enumerate(stems):
            label = f"{stem} {100 + 10 * n + rnd.randrange(9)}"
            facts: dict[str, Any] = {
                "price": round(rnd.uniform(*prices) / 5) * 5 - 0.01,
                "weight": round(rnd.uniform(*weights), 2),
                "width": round(rnd.uniform(*widths), 1),
                "releaseDate": date(rnd.randrange(2019, 2026), rnd.randrange(1, 13), rnd.randrange(1, 28)).isoformat()}
            if rnd.random() < 0.7:
                facts["warrantyMonths"] = rnd.choice([12, 24, 36])
            t = add(label, kind, **facts)
            t.links["hasPart"] = [_iri(p) for p in sorted(rnd.sample(parts, k=min(len(parts), rnd.randrange(2, 4))))]
    people: list[Thing] = []
    names = list(zip(FIRST, LAST))
    for i, (first, last) in enumerate(names):
        dept = DEPARTMENTS[i % len(DEPARTMENTS)]
        facts = {"email": f"{first.lower()}.{last.lower()}@halden.example", "jobTitle": TITLES[i % len(TITLES)],
                 "hireDate": date(rnd.randrange(2008, 2025), rnd.randrange(1, 13), rnd.randrange(1, 28)).isoformat()}
        if rnd.random() < 0.6:
            facts["phone"] = f"+31 30 {rnd.randrange(100, 999)} {rnd.randrange(1000, 9999)}"
        p = add(f"{first} {last}", "Employee", **facts)
        p.links["worksIn"] = [_iri(dept)]
        people.append(p)
    for dept in DEPARTMENTS:
        add(dept, "Department")
    for i, p in enumerate(people):
        # the first person of each department heads it (but Legal has no head); the rest report to them
        head = people[i % len(DEPARTMENTS)]
        if head is not p:
            p.links["reportsTo"] = [head.iri]
    for j, dept in enumerate(DEPARTMENTS[:-1]):
        things[_iri(dept)].links["headedBy"] = [people[j].iri]
    return Catalogue(things)


_TYPES = {"price": "xsd:decimal", "weight": "xsd:decimal", "width": "xsd:decimal", "releaseDate": "xsd:date",
          "warrantyMonths": "xsd:integer", "unitCost": "xsd:decimal", "foundedYear": "xsd:integer",
          "hireDate": "xsd:date"}


def schema_ttl() -> str:
    out = [PREFIXES, "<http://example.org/catalogue> a owl:Ontology .\n\n"]
    for local, parent, label, comment in CLASSES:
        sub = f"    rdfs:subClassOf c:{parent} ;\n" if parent else ""
        out.append(f"c:{local} a owl:Class ;\n{sub}    rdfs:label {literal(label)} ;\n"
                   f"    rdfs:comment {literal(comment)} .\n\n")
    for local, is_obj, dom, rng, label, comment, inverse in PROPS:
        out.append(property_ttl("c", local, is_obj, dom, f"c:{rng}" if is_obj else rng, label, comment, inverse) + "\n")
    return "".join(out)


def instances_ttl(cat: Catalogue) -> str:
    out = [PREFIXES]
    for t in cat.things.values():
        lines = [f"<{t.iri}> a c:{t.cls} ;", f"    rdfs:label {literal(t.label)}"]
        lines += [f"    c:{p} {literal(_written(v), _TYPES.get(p, 'xsd:string'))}" for p, v in t.facts.items()]
        lines += [f"    c:{p} " + ", ".join(f"<{o}>" for o in objs) for p, objs in t.links.items()]
        out.append(" ;\n".join(lines) + " .\n")
    return "\n".join(out)


def _written(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)
