"""Synthetic domain: a regional health service.

Healthcare sites (general and specialist hospitals, outpatient clinics) stand in towns and run wards or
units; each unit is led by a clinician and staffed by clinicians (physicians, surgeons, consultant
physicians, nurses, clinical nurse specialists) who practise medical specialties. `generate(seed)` returns
the OWL schema, the gold instances, one page per town, site, unit and clinician written in five layouts,
and questions of eight kinds (open and with options), every answer taken from the generator's records.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from benchmarks.domains import DomainData, literal, property_ttl

NS = "http://example.org/health#"
PREFIXES = (f"@prefix h: <{NS}> .\n"
            "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
            "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n")

# (local name, parent, label, comment)
CLASSES = [
    ("HealthcareSite", None, "healthcare site", "A place where the health service sees or treats patients."),
    ("Hospital", "HealthcareSite", "hospital", "A healthcare site with inpatient beds, open day and night."),
    ("GeneralHospital", "Hospital", "general hospital",
     "A hospital treating a broad mix of conditions for the people of its own area."),
    ("SpecialistHospital", "Hospital", "specialist hospital",
     "A hospital devoted to one branch of medicine, taking patients from the whole region."),
    ("Clinic", "HealthcareSite", "outpatient clinic",
     "A smaller site for appointments and day-case treatment, where patients do not stay overnight."),
    ("CareUnit", None, "ward or unit", "A ward, unit or suite inside a healthcare site where one team cares for patients."),
    ("Clinician", None, "clinician", "A registered health professional who looks after patients."),
    ("Physician", "Clinician", "physician", "A medically qualified doctor."),
    ("Surgeon", "Physician", "surgeon", "A doctor who carries out operations."),
    ("ConsultantPhysician", "Physician", "consultant physician",
     "A senior doctor with overall responsibility for patients in a medical field."),
    ("Nurse", "Clinician", "nurse", "A registered nurse giving hands-on care."),
    ("SpecialistNurse", "Nurse", "clinical nurse specialist", "A nurse with advanced training in one area of care."),
    ("MedicalSpecialty", None, "medical specialty", "A branch of medicine, such as cardiology or oncology."),
    ("City", None, "town or city", "A settlement served by the regional health service."),
]

# (local name, object/datatype, domain, range, label, comment, inverse)
PROPS = [
    ("locatedIn", "O", "HealthcareSite", "City", "is situated in town", "The town or city where the site stands.", None),
    ("hasUnit", "O", "HealthcareSite", "CareUnit", "runs ward or unit", "A ward or unit that the site runs.",
     "partOfSite"),
    ("partOfSite", "O", "CareUnit", "HealthcareSite", "belongs to site",
     "The hospital or clinic that a ward or unit is part of.", "hasUnit"),
    ("ledBy", "O", "CareUnit", "Clinician", "is headed by", "The clinician in charge of the ward or unit.", "leads"),
    ("leads", "O", "Clinician", "CareUnit", "is in charge of", "A ward or unit that the clinician heads.", "ledBy"),
    ("worksIn", "O", "Clinician", "CareUnit", "is based on ward",
     "The ward or unit where the clinician works from day to day.", None),
    ("hasSpecialty", "O", "Clinician", "MedicalSpecialty", "practises in the field of",
     "The branch of medicine that the clinician practises.", None),
    ("treatsSpecialty", "O", "CareUnit", "MedicalSpecialty", "provides care in",
     "The branch of medicine whose patients the ward or unit looks after.", None),
    ("refersTo", "O", "Clinic", "Hospital", "sends patients on to",
     "The hospital to which the clinic sends patients who need admitting.", None),
    ("bedCount", "D", "CareUnit", "xsd:integer", "number of beds", "How many beds the ward or unit has.", None),
    ("floorNumber", "D", "CareUnit", "xsd:integer", "floor level",
     "The storey of the building on which the ward or unit is found.", None),
    ("openingDate", "D", "HealthcareSite", "xsd:date", "opened its doors on",
     "The date on which the site first received patients.", None),
    ("phoneNumber", "D", "HealthcareSite", "xsd:string", "switchboard telephone",
     "The main telephone number of the site.", None),
    ("emailAddress", "D", "Clinician", "xsd:string", "contact e-mail", "The work e-mail address of the clinician.", None),
    ("qualificationYear", "D", "Clinician", "xsd:gYear", "year of qualification",
     "The year in which the clinician first qualified.", None),
    ("population", "D", "City", "xsd:integer", "number of inhabitants", "How many people live in the town or city.",
     None),
    ("regionName", "D", "City", "xsd:string", "health region",
     "The region of the health service in which the town or city lies.", None),
]
RANGE = {p[0]: p[3] for p in PROPS}
PARENT = {c[0]: c[1] for c in CLASSES}
CLASS_LABEL = {c[0]: c[2] for c in CLASSES}

CITIES = ["Kingsmere", "Harrowfield", "Brackenridge", "Wexcombe", "Saltmarsh", "Thornbury", "Corrin Bay", "Millbrook"]
REGIONS = ["North Moors", "Coastal Lowlands", "Upper Vale"]
SPECIALTIES = ["Cardiology", "Respiratory Medicine", "Gastroenterology", "Neurology", "Renal Medicine",
               "Geriatric Medicine", "Emergency Medicine", "General Surgery", "Orthopaedics", "Ophthalmology",
               "Paediatrics", "Oncology", "Dermatology", "Diabetes and Endocrinology"]
SURGICAL = {"General Surgery", "Orthopaedics", "Ophthalmology"}
GENERAL_MIX = ["Cardiology", "Respiratory Medicine", "Gastroenterology", "Neurology", "Renal Medicine",
               "Geriatric Medicine", "Emergency Medicine", "General Surgery", "Orthopaedics"]
CLINIC_MIX = ["Dermatology", "Diabetes and Endocrinology", "Geriatric Medicine", "Respiratory Medicine",
              "Emergency Medicine", "Ophthalmology", "Paediatrics"]
# (name, class, town or None for a drawn one, focus of a specialist hospital)
SITES = [
    ("Kingsmere Royal Infirmary", "GeneralHospital", "Kingsmere", None),
    ("Harrowfield General Hospital", "GeneralHospital", "Harrowfield", None),
    ("St Aldric's Hospital", "GeneralHospital", None, None),
    ("Brackenridge District Hospital", "GeneralHospital", "Brackenridge", None),
    ("Wexcombe Community Hospital", "GeneralHospital", "Wexcombe", None),
    ("Pellow Cross Hospital", "GeneralHospital", None, None),
    ("Saltmarsh Eye Hospital", "SpecialistHospital", "Saltmarsh", "Ophthalmology"),
    ("Corrin Children's Hospital", "SpecialistHospital", "Corrin Bay", "Paediatrics"),
    ("Thornbury Orthopaedic Hospital", "SpecialistHospital", "Thornbury", "Orthopaedics"),
    ("Greyfriars Cancer Hospital", "SpecialistHospital", None, "Oncology"),
    ("Millbrook Health Clinic", "Clinic", "Millbrook", None),
    ("Quayside Walk-in Clinic", "Clinic", None, None),
    ("Fenwick Lane Clinic", "Clinic", None, None),
    ("Orchard Street Clinic", "Clinic", None, None),
    ("Larkhill Skin Clinic", "Clinic", None, "Dermatology"),
    ("Beacon Diabetes Clinic", "Clinic", None, "Diabetes and Endocrinology"),
    ("Harbourgate Clinic", "Clinic", None, None),
    ("Tollbridge Outpatient Centre", "Clinic", None, None),
    ("Sandpiper Road Clinic", "Clinic", None, None),
    ("Elmstead Day Clinic", "Clinic", None, None),
]
UNIT_WORDS = ("Rowan Hawthorn Alder Birch Cedar Elm Hazel Juniper Larch Linden Maple Oak Poplar Sycamore Willow Yew "
              "Aspen Holly Hornbeam Walnut Chestnut Spruce Kestrel Heron Curlew Lapwing Merlin Osprey Plover Wren "
              "Skylark Kingfisher Dunlin Avocet Redstart Siskin Linnet Fieldfare Nuthatch Goldcrest Bluebell "
              "Foxglove Heather Primrose Sorrel Campion Teasel Yarrow Clover Tansy Vetch Thistle Bracken Fern Sedge "
              "Harebell Cowslip Meadowsweet Speedwell Celandine Marigold Lavender Snowdrop").split()
FEMALE = ("Amara Beatrix Catrin Delyth Esme Farida Greta Hana Ines Johanna Keziah Lorna Maeve Nadia Orla Priya "
          "Rosalind Saoirse Tamsin Una Wenna Yara Zofia Imogen Leonie").split()
MALE = ("Aled Bram Cormac Dev Emrys Fintan Gideon Hamish Idris Jonah Kofi Lorcan Mateo Niall Osian Piers Rafe "
        "Soren Tobias Umar Vikram Wilf Yusuf Ezra Callum").split()
SURNAMES = ("Achterberg Blackwood Castellano Drummond Ekwueme Fairweather Gallagher Hollis Iqbal Jarvis Kowalczyk "
            "Lindqvist Nakamura Okafor Penhaligon Quinlan Rourke Sandoval Trelawney Underhill Varga Whitlock "
            "Yelland Zielinski Abernethy Bannerman Choudhury Dunmore Esterhuizen Fitzroy Greenhalgh Hargreaves "
            "Jessop Kerrigan Lowther Maddox Nwosu Ogilvie Pryce Rasmussen Sheridan Tolland Vaughan Wetherell "
            "Adebayo Brennan Carmody Dalgleish Everett Ferreira Goodwin Halloran Isaksen Jankowski Kinnear Lachance "
            "Marchetti Northcote Oyelaran Petrakis Quarrie Ridgeway Szabo Tennant Ulloa Vasquez Wainwright Yardley "
            "Ashdown Bellamy Cartwright Devlin Elphick Frobisher Gunn Hebden Ingram Kaur Loveday Mistry").split()
DOCTORS = {"Physician", "Surgeon", "ConsultantPhysician"}
PRONOUNS = {"f": ("she", "her", "her"), "m": ("he", "him", "his"), "n": ("it", "it", "its")}


@dataclass
class Ent:
    local: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)
    gender: str = "n"

    @property
    def display(self) -> str:  # how pages name the entity (doctors get their title)
        return f"Dr {self.label}" if self.cls in DOCTORS else self.label


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower().replace("'", "")).strip("_")


def _is_a(cls: str, sup: str) -> bool:
    while cls is not None:
        if cls == sup:
            return True
        cls = PARENT[cls]
    return False


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _article(word: str) -> str:
    return "an" if word[0].lower() in "aeiou" else "a"


# ---------------------------------------------------------------- the world


def _build_world(rng: random.Random) -> dict[str, list[Ent]]:
    cities = []
    for name in CITIES:
        c = Ent(f"city_{_slug(name)}", name, "City")
        c.facts["population"] = rng.randint(12, 310) * 1000 + rng.randint(0, 999)
        c.facts["regionName"] = rng.choice(REGIONS)
        cities.append(c)
    by_city = {c.label: c for c in cities}
    specs = {s: Ent(f"spec_{_slug(s)}", s, "MedicalSpecialty") for s in SPECIALTIES}
    phones = rng.sample(range(960000, 969999), len(SITES))
    sites = []
    for (name, cls, town, _), phone in zip(SITES, phones):
        s = Ent(f"site_{_slug(name)}", name, cls)
        s.facts["locatedIn"] = by_city[town] if town else rng.choice(cities)
        first, last = (1890, 2015) if cls != "Clinic" else (1960, 2021)
        s.facts["openingDate"] = f"{rng.randint(first, last)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        s.facts["phoneNumber"] = f"01632 {phone}"
        sites.append(s)
    hospitals = [s for s in sites if s.cls == "GeneralHospital"]
    for s in sites:
        if s.cls == "Clinic":
            near = [h for h in hospitals if h.facts["locatedIn"] is s.facts["locatedIn"]]
            s.facts["refersTo"] = rng.choice(near or hospitals)
    units, clinicians = _build_units(rng, sites, specs)
    return {"cities": cities, "specialties": list(specs.values()), "sites": sites, "units": units,
            "clinicians": clinicians}


def _build_units(rng: random.Random, sites: list[Ent], specs: dict[str, Ent]) -> tuple[list[Ent], list[Ent]]:
    words = rng.sample(UNIT_WORDS, len(UNIT_WORDS))
    names = [(f, m) for m in SURNAMES for f in rng.sample(FEMALE + MALE, 3)]  # a surname at most three times
    rng.shuffle(names)
    units: list[Ent] = []
    clinicians: list[Ent] = []
    for site, (_, cls, _, focus) in zip(sites, SITES):
        if cls == "Clinic":
            others = [a for a in CLINIC_MIX if a != focus]
            areas = [focus] + rng.sample(others, rng.randint(0, 1)) if focus else rng.sample(others, rng.randint(1, 2))
        elif focus:
            areas = [focus] * rng.randint(2, 3)
        else:
            areas = rng.sample(GENERAL_MIX, rng.randint(3, 5))
        site.facts["hasUnit"] = []
        for area in areas:
            suffix = "Suite" if cls == "Clinic" else rng.choice(["Ward", "Ward", "Unit"])
            u = Ent("", f"{words.pop()} {suffix}", "CareUnit")
            u.local = f"unit_{_slug(u.label)}"
            u.facts["partOfSite"] = site
            u.facts["treatsSpecialty"] = specs[area]
            u.facts["bedCount"] = rng.randint(2, 8) if cls == "Clinic" else rng.randint(8, 32)
            u.facts["floorNumber"] = rng.randint(1, 2) if cls == "Clinic" else rng.randint(1, 6)
            site.facts["hasUnit"].append(u)
            units.append(u)
            team = _staff_unit(rng, u, cls, area, names, specs)
            u.facts["ledBy"] = team[0]
            clinicians.extend(team)
    return units, clinicians


def _staff_unit(rng: random.Random, unit: Ent, site_cls: str, area: str, names: list, specs: dict[str, Ent]) -> list:
    """The lead clinician of a unit first, then its other staff."""
    if area in SURGICAL:
        lead_cls = "Surgeon"
    elif site_cls == "Clinic":
        lead_cls = rng.choice(["SpecialistNurse", "ConsultantPhysician"])
    else:
        lead_cls = rng.choice(["ConsultantPhysician"] * 4 + ["SpecialistNurse"])
    others = ["Physician", "Nurse", "Nurse", "SpecialistNurse"] + (["Surgeon"] if area in SURGICAL else [])
    extra = rng.randint(1, 2) if site_cls == "Clinic" else rng.randint(1, 3)
    team = []
    for i, cls in enumerate([lead_cls] + [rng.choice(others) for _ in range(extra)]):
        first, last = names.pop()
        c = Ent(f"clin_{_slug(first + ' ' + last)}", f"{first} {last}", cls, gender="f" if first in FEMALE else "m")
        c.facts["worksIn"] = unit
        if i == 0:
            c.facts["leads"] = unit
        if cls != "Nurse":
            own = area if cls != "Physician" or rng.random() > 0.2 else rng.choice(SPECIALTIES)
            c.facts["hasSpecialty"] = specs[own]
        c.facts["qualificationYear"] = str(rng.randint(1980, 2008) if i == 0 else rng.randint(1990, 2022))
        domain = _slug(unit.facts["partOfSite"].label).replace("_", "-")
        c.facts["emailAddress"] = f"{first.lower()}.{last.lower()}@{domain}.example.org"
        team.append(c)
    return team


# ---------------------------------------------------------------- Turtle


def _lit(value: Any, dtype: str = "xsd:string") -> str:
    return literal(value, dtype)


def _schema_ttl() -> str:
    out = [PREFIXES, f"<{NS[:-1]}> a owl:Ontology ;\n    rdfs:label {_lit('Regional health service ontology')} .\n"]
    for local, parent, label, comment in CLASSES:
        sup = f" ;\n    rdfs:subClassOf h:{parent}" if parent else ""
        out.append(f"h:{local} a owl:Class{sup} ;\n    rdfs:label {_lit(label)} ;\n    rdfs:comment {_lit(comment)} .\n")
    for local, kind, dom, rng_, label, comment, inverse in PROPS:
        out.append(property_ttl("h", local, kind == "O", dom, f"h:{rng_}" if kind == "O" else rng_, label, comment,
                                inverse))
    return "\n".join(out)


def _gold_ttl(world: dict[str, list[Ent]]) -> str:
    out = [PREFIXES]
    for group in ("cities", "specialties", "sites", "units", "clinicians"):
        for e in world[group]:
            parts = [f"a h:{e.cls}", f"rdfs:label {_lit(e.label)}"]
            for prop, val in e.facts.items():
                vals = val if isinstance(val, list) else [val]
                objs = [f"h:{v.local}" if isinstance(v, Ent) else _lit(v, RANGE[prop]) for v in vals]
                parts.append(f"h:{prop} " + ", ".join(objs))
            out.append(f"h:{e.local} " + " ;\n    ".join(parts) + " .\n")
    return "\n".join(out)


# ---------------------------------------------------------------- page facts
# Each fact: (field labels, verb phrases, (question, answer) pairs, value). Templates may use {v} value,
# {a} its article, {p}/{P} pronoun, {pos} possessive, {s} subject and {o} object in a question.


def _site_facts(s: Ent) -> list[tuple]:
    units = [u.label for u in s.facts["hasUnit"]]
    facts = [
        (["Type", "Category", "Kind of site"], ["is {a} {v}", "operates as {a} {v}"],
         [("What kind of site is {s}?", "{P} is {a} {v}."), ("Is {s} a hospital or a clinic?", "{P} is {a} {v}.")],
         CLASS_LABEL[s.cls]),
        (["Town", "Location", "City"], ["is situated in {v}", "stands in the town of {v}",
                                        "serves patients from its base in {v}"],
         [("Where is {s}?", "In {v}."), ("Which town is {s} in?", "{P} is in {v}.")], s.facts["locatedIn"].label),
        (["Opened", "Opening date", "Date opened"], ["opened on {v}", "first received patients on {v}",
                                                     "has been open since {v}"],
         [("When did {s} open?", "{P} opened on {v}."), ("How long has {s} been running?", "Since {v}.")],
         s.facts["openingDate"]),
        (["Phone", "Telephone", "Switchboard"], ["can be reached by telephone on {v}", "takes calls on {v}",
                                                 "gives {v} as its switchboard number"],
         [("How do I phone {o}?", "Call {v}."), ("What is the switchboard number?", "It is {v}.")],
         s.facts["phoneNumber"]),
        (["Units", "Wards and units", "Services on site"], ["runs {v}", "is home to {v}", "houses {v}"],
         [("Which wards and units does {s} have?", "{v}."), ("What services are based at {o}?", "{P} runs {v}.")],
         units),
    ]
    if "refersTo" in s.facts:
        facts.append((["Referral hospital", "Refers to", "Admissions go to"],
                      ["sends patients who need admission to {v}", "refers its more complex cases to {v}",
                       "passes patients needing a hospital bed on to {v}"],
                      [("Where are patients sent if they need admitting?", "To {v}."),
                       ("Which hospital does {s} refer to?", "{v}.")], s.facts["refersTo"].label))
    return facts


def _unit_facts(u: Ent) -> list[tuple]:
    return [
        (["Site", "Hospital or clinic", "Part of"], ["is part of {v}", "belongs to {v}", "sits within {v}"],
         [("Where is {s}?", "{P} is part of {v}."), ("Which site runs {o}?", "{v}.")],
         u.facts["partOfSite"].label),
        (["Specialty", "Clinical area", "Speciality"], ["provides care in {v}", "treats patients under {v}",
                                                        "is dedicated to {v}"],
         [("What kind of care does {s} provide?", "{P} provides care in {v}."),
          ("Which specialty does {s} cover?", "{v}.")], u.facts["treatsSpecialty"].label),
        (["Lead clinician", "Led by", "Head of unit"], ["is led by {v}", "is headed by {v}",
                                                        "has {v} as its lead clinician"],
         [("Who is in charge of {o}?", "{v}."), ("Who leads {o}?", "{P} is led by {v}.")],
         u.facts["ledBy"].display),
        (["Beds", "Bed count", "Number of beds"], ["has {v} beds", "offers {v} beds", "runs {v} beds"],
         [("How many beds does {s} have?", "{v}."), ("How big is {s}?", "{P} has {v} beds.")],
         str(u.facts["bedCount"])),
        (["Floor", "Level", "Floor level"], ["is on floor {v}", "occupies level {v} of the building",
                                             "can be found on floor {v}"],
         [("Which floor is {s} on?", "Floor {v}."), ("Where in the building is {s}?", "On level {v}.")],
         str(u.facts["floorNumber"])),
    ]


def _clinician_facts(c: Ent) -> list[tuple]:
    facts = [
        (["Role", "Position", "Profession"], ["is {a} {v}", "works as {a} {v}"],
         [("What does {s} do?", "{P} is {a} {v}."), ("What is the role of {o}?", "{P} works as {a} {v}.")],
         CLASS_LABEL[c.cls]),
        (["Unit", "Ward", "Based on"], ["works on {v}", "is based on {v}", "is part of the team on {v}"],
         [("Where does {s} work?", "On {v}."), ("Which unit is {s} based on?", "{P} is based on {v}.")],
         c.facts["worksIn"].label),
    ]
    if "leads" in c.facts:
        facts.append((["Leads", "Head of", "In charge of"], ["leads {v}", "heads the team on {v}",
                                                             "is in charge of {v}"],
                      [("Does {s} lead a unit?", "Yes, {p} heads {v}."), ("Which unit is {s} in charge of?", "{v}.")],
                      c.facts["leads"].label))
    if "hasSpecialty" in c.facts:
        facts.append((["Specialty", "Field", "Area of practice"], ["specialises in {v}", "practises {v}",
                                                                   "has made {v} {pos} field"],
                      [("What field does {s} practise in?", "{v}."),
                       ("What is the specialty of {o}?", "{P} specialises in {v}.")],
                      c.facts["hasSpecialty"].label))
    facts += [
        (["Qualified", "Year qualified", "Qualification year"],
         ["qualified in {v}", "gained {pos} professional qualification in {v}", "has held {pos} registration since {v}"],
         [("When did {s} qualify?", "In {v}."), ("How long has {s} been qualified?", "Since {v}.")],
         c.facts["qualificationYear"]),
        (["E-mail", "Email", "Contact"], ["can be contacted at {v}", "answers e-mail at {v}",
                                          "lists {v} as {pos} work address"],
         [("How can I contact {o}?", "By e-mail at {v}"), ("What is the e-mail address of {o}?", "{v}")],
         c.facts["emailAddress"]),
    ]
    return facts


def _city_facts(c: Ent) -> list[tuple]:
    return [
        (["Population", "Residents", "Inhabitants"], ["has a population of {v}", "is home to {v} people",
                                                      "counts {v} residents"],
         [("How many people live in {o}?", "{v}."), ("What is the population of {o}?", "{P} has {v} inhabitants.")],
         str(c.facts["population"])),
        (["Region", "Health region", "Area"], ["lies in the {v} health region", "belongs to the {v} region",
                                               "is part of the {v} region of the service"],
         [("Which region is {s} in?", "{v}."), ("Which health region covers {o}?", "The {v} region.")],
         c.facts["regionName"]),
    ]


# ---------------------------------------------------------------- layouts

NEWS = {  # (headline, opening sentence, closing sentence)
    "site": [("{N} completes entrance refurbishment",
              "{N} has finished a six-month refurbishment of its main entrance, managers confirmed this week.",
              "A spokesperson said appointments had run as normal throughout the work."),
             ("Open day draws crowds to {N}", "Hundreds of visitors toured {N} on Saturday during its annual open day.",
              "Organisers said the day raised money for the site's volunteer drivers."),
             ("New car park for {N}", "Work on a larger car park at {N} is due to finish before the winter.",
              "Local councillors welcomed the plans.")],
    "unit": [("{N} reopens after refit", "{N} has reopened to patients after a four-week refit, the health service said.",
              "The health service said no beds were lost during the work."),
             ("Inspectors praise {N}", "Inspectors have praised the standard of care on {N} in a report out this week.",
              "Staff said they were proud of the findings."),
             ("Volunteers join {N}", "A group of volunteers has started helping patients at mealtimes on {N}.",
              "More volunteers are being sought for the evening shift.")],
    "clinician": [("Award for {N}", "{N} has been recognised at this year's regional care awards for work on "
                                    "patient safety.", "Colleagues described the award as well deserved."),
                  ("{N} joins research study", "{N} is taking part in a two-year study of shorter hospital stays.",
                   "The first findings are expected next year."),
                  ("{N} addresses conference", "{N} spoke to more than two hundred colleagues at the region's "
                                               "clinical conference on Thursday.",
                   "The talk was among the best attended of the day.")],
    "city": [("New population figures for {N}", "Fresh population figures for {N} were published by the regional "
                                                 "statistics office this week.",
              "Planners say the figures will help decide where services are needed."),
             ("Our towns: {N}", "In our series on the places the health service covers, this week we visit {N}.",
              "Next week the series moves further along the coast."),
             ("{N} plans new health centre", "Councillors in {N} have begun talks about a new health centre.",
              "A decision is expected in the spring.")],
}
NEWS_LINK = ["{P} {x}.", "According to the health service, {p} {x}.", "Records show that {p} {x}."]
FLAVOUR = ["It is one of the towns covered by the regional health service.",
           "Its residents are looked after by the regional health service."]
FIELD_HEADERS = ["{N}", "{N} — {kw}", "Directory entry: {N}"]
QA_HEADERS = ["{N}: questions and answers", "FAQ — {N}", "Common questions about {N}"]
QA_STYLES = [("Q: ", "A: "), ("Question: ", "Answer: "), ("", "")]
MIXED_HEADINGS = ["Key facts", "At a glance", "Details"]
KIND_WORD = {"site": "site profile", "unit": "ward details", "clinician": "clinician profile", "city": "town profile"}


def _context(e: Ent, kind: str) -> dict[str, str]:
    p, o, pos = PRONOUNS[e.gender]
    noun = {"site": "The clinic" if e.cls == "Clinic" else "The hospital",
            "unit": "The " + e.label.split()[-1].lower(), "clinician": "The " + CLASS_LABEL[e.cls],
            "city": "The town"}[kind]
    return {"N": e.display, "kind": kind, "kw": KIND_WORD[kind], "p": p, "o": o, "pos": pos, "P": p.capitalize(),
            "noun": noun, "rel": "who" if kind == "clinician" else "which",
            "rel_subj": {"site": "The site", "clinician": e.display}.get(kind, noun)}


def _fill(template: str, fact: tuple, ctx: dict[str, str], s: str = "", o: str = "") -> str:
    v = fact[3]
    text = _join(v) if isinstance(v, list) else v
    return template.format(v=text, a=_article(text), p=ctx["p"], P=ctx["P"], pos=ctx["pos"],
                           s=s or ctx["N"], o=o or ctx["N"])


def _field_lines(facts: list[tuple], rng: random.Random) -> list[str]:
    one_per_line = rng.random() < 0.5
    lines = []
    for f in facts:
        label, value = rng.choice(f[0]), f[3]
        if isinstance(value, list) and one_per_line:
            lines += [f"{label}:"] + [f"  - {x}" for x in value]
        else:
            lines.append(f"{label}: {', '.join(value) if isinstance(value, list) else value}")
    return lines


def _fields(ctx: dict, facts: list[tuple], rng: random.Random) -> str:
    return "\n".join([rng.choice(FIELD_HEADERS).format(**ctx)] + _field_lines(facts, rng))


def _prose(ctx: dict, facts: list[tuple], rng: random.Random) -> str:
    """2-5 sentences, each carrying one or two facts as verb phrases."""
    n = len(facts)
    k = min(5, max(2, (n + 1) // 2))
    sizes = [2] * max(0, n - k) + [1] * max(0, 2 * k - n if n >= k else n)
    rng.shuffle(sizes)
    sentences, i = [], 0
    for j, size in enumerate(sizes):
        subject = ctx["N"] if j == 0 else rng.choice([ctx["P"], ctx["noun"]])
        phrases = [_fill(rng.choice(f[1]), f, ctx) for f in facts[i:i + size]]
        sentences.append(f"{subject} {' and '.join(phrases)}.")
        i += size
    if len(sentences) < 2:
        sentences.append(rng.choice(FLAVOUR))
    return " ".join(sentences)


def _news(ctx: dict, facts: list[tuple], rng: random.Random) -> str:
    headline, lead, close = rng.choice(NEWS[ctx["kind"]])
    links = rng.sample(NEWS_LINK, len(NEWS_LINK))
    sentences = [lead.format(**ctx)]
    rest = facts[:]
    if len(rest) >= 2:
        a, b = rest.pop(0), rest.pop(0)
        sentences.append(f"{ctx['rel_subj']}, {ctx['rel']} {_fill(rng.choice(a[1]), a, ctx)}, "
                         f"{_fill(rng.choice(b[1]), b, ctx)}.")
    while rest:
        pair, rest = rest[:2], rest[2:]
        x = " and ".join(_fill(rng.choice(f[1]), f, ctx) for f in pair)
        sentences.append(links[len(sentences) % len(links)].format(P=ctx["P"], p=ctx["p"], x=x))
    sentences.append(close)
    return headline.format(**ctx) + "\n\n" + " ".join(sentences)


def _qa(ctx: dict, facts: list[tuple], rng: random.Random) -> str:
    qmark, amark = rng.choice(QA_STYLES)
    blocks = [rng.choice(QA_HEADERS).format(**ctx)]
    for i, f in enumerate(facts):
        question, answer = rng.choice(f[2])
        named = i == 0 or rng.random() < 0.5
        s, o = (ctx["N"], ctx["N"]) if named else (ctx["p"], ctx["o"])
        blocks.append(f"{qmark}{_fill(question, f, ctx, s, o)}\n{amark}{_fill(answer, f, ctx, s, o)}")
    return "\n\n".join(blocks)


def _mixed(ctx: dict, facts: list[tuple], rng: random.Random) -> str:
    half = (len(facts) + 1) // 2
    lines = _field_lines(facts[half:], rng)
    return _prose(ctx, facts[:half], rng) + "\n\n" + rng.choice(MIXED_HEADINGS) + ":\n" + "\n".join(lines)


LAYOUTS = {"fields": _fields, "prose": _prose, "news": _news, "qa": _qa, "mixed": _mixed}


def _pages(world: dict[str, list[Ent]], rng: random.Random) -> list[dict[str, Any]]:
    makers = [("cities", "city", _city_facts), ("sites", "site", _site_facts), ("units", "unit", _unit_facts),
              ("clinicians", "clinician", _clinician_facts)]
    pages = []
    for group, kind, make in makers:
        for e in world[group]:
            facts = make(e)
            first, rest = facts[:1], facts[1:]
            if kind in ("site", "clinician"):  # the kind of site or role stays first; the rest are shuffled
                rng.shuffle(rest)
                facts = first + rest
            layout = rng.choice(list(LAYOUTS))
            prefix = {"site": "clinic" if e.cls == "Clinic" else "hospital"}.get(kind, kind)
            pages.append({"id": f"{prefix}-{_slug(e.label).replace('_', '-')}", "title": e.display,
                          "text": LAYOUTS[layout](_context(e, kind), facts, rng), "about": NS + e.local,
                          "layout": layout})
    return pages


# ---------------------------------------------------------------- questions
# A candidate: {"q": [three phrasings with {x} for the entity], "x": entity label, "a": answer (str or list),
# "pool": wrong answers of the same class}.


def _cand(phrasings: list[str], x: str, answer: Any, pool: list[str]) -> dict[str, Any]:
    return {"q": phrasings, "x": x, "a": answer, "pool": pool}


def _indexes(world: dict[str, list[Ent]]) -> dict[str, dict[str, list[Ent]]]:
    staff: dict[str, list[Ent]] = {u.local: [] for u in world["units"]}
    for c in world["clinicians"]:
        staff[c.facts["worksIn"].local].append(c)
    referrers: dict[str, list[Ent]] = {s.local: [] for s in world["sites"]}
    town: dict[str, list[Ent]] = {c.local: [] for c in world["cities"]}
    for s in world["sites"]:
        town[s.facts["locatedIn"].local].append(s)
        if "refersTo" in s.facts:
            referrers[s.facts["refersTo"].local].append(s)
    return {"staff": staff, "referrers": referrers, "town": town}


def _labels(ents: list[Ent]) -> list[str]:
    return [e.label for e in ents]


def _q_attribute(w: dict, ix: dict) -> list[list[dict]]:
    sites, units, clins = w["sites"], w["units"], w["clinicians"]
    phones = [s.facts["phoneNumber"] for s in sites]
    beds = [str(u.facts["bedCount"]) for u in units]
    mails = [c.facts["emailAddress"] for c in clins]
    return [
        [_cand(["What is the phone number of {x}?", "Which telephone number should callers use for {x}?",
                "{x} can be phoned on which number?"], s.label, s.facts["phoneNumber"], phones) for s in sites],
        [_cand(["How many beds does {x} have?", "What is the bed count of {x}?", "{x} has how many beds?"],
               u.label, str(u.facts["bedCount"]), beds) for u in units],
        [_cand(["What is the e-mail address of {x}?", "At which address can {x} be e-mailed?",
                "{x} can be reached at which e-mail address?"], c.label, c.facts["emailAddress"], mails) for c in clins],
    ]


def _q_relation(w: dict, ix: dict) -> list[list[dict]]:
    sites, units, clins = _labels(w["sites"]), _labels(w["units"]), _labels(w["clinicians"])
    return [
        [_cand(["Which site does {x} belong to?", "{x} is part of which hospital or clinic?",
                "Name the site that {x} is in."], u.label, u.facts["partOfSite"].label, sites) for u in w["units"]],
        [_cand(["On which ward or unit does {x} work?", "{x} is based on which unit?", "Name the unit where {x} works."],
               c.label, c.facts["worksIn"].label, units) for c in w["clinicians"]],
        [_cand(["In which town is {x}?", "{x} is located in which city?", "Name the town where {x} stands."],
               s.label, s.facts["locatedIn"].label, _labels(w["cities"])) for s in w["sites"]],
        [_cand(["Who leads {x}?", "{x} is led by whom?", "Name the clinician who leads {x}."],
               u.label, u.facts["ledBy"].label, clins) for u in w["units"]],
    ]


def _q_inverse_list(w: dict, ix: dict) -> list[list[dict]]:
    clins, units = _labels(w["clinicians"]), _labels(w["units"])
    staff = [(u, _labels(ix["staff"][u.local])) for u in w["units"]]
    owned = [(s, _labels(s.facts["hasUnit"])) for s in w["sites"]]
    sent = [(s, _labels(ix["referrers"][s.local])) for s in w["sites"]]
    clinics = [s.label for s in w["sites"] if s.cls == "Clinic"]
    return [
        [_cand(["Who works on {x}?", "Which clinicians are based on {x}?", "List the people who work on {x}."],
               u.label, a, clins) for u, a in staff if 2 <= len(a) <= 5],
        [_cand(["Which wards and units belong to {x}?", "What units does {x} run?", "List the units of {x}."],
               s.label, a, units) for s, a in owned if 2 <= len(a) <= 5],
        [_cand(["Which clinics refer patients to {x}?", "{x} receives referrals from which clinics?",
                "List the clinics whose patients are referred to {x}."], s.label, a, clinics)
         for s, a in sent if 2 <= len(a) <= 5],
    ]


def _q_count(w: dict, ix: dict) -> list[list[dict]]:
    def c(phr: list[str], e: Ent, n: int) -> dict[str, Any]:
        return _cand(phr, e.label, str(n), [str(k) for k in range(max(0, n - 3), n + 5) if k != n])
    return [
        [c(["How many units does {x} have?", "How many wards and units are there at {x}?",
            "What is the number of units run by {x}?"], s, len(s.facts["hasUnit"])) for s in w["sites"]],
        [c(["How many clinicians work on {x}?", "How many people are on the team of {x}?",
            "What is the size of the clinical team on {x}?"], u, len(ix["staff"][u.local])) for u in w["units"]],
        [c(["How many healthcare sites are there in {x}?", "How many hospitals and clinics does {x} have?",
            "Count the healthcare sites located in {x}."], t, len(ix["town"][t.local])) for t in w["cities"]],
        [c(["How many clinics refer patients to {x}?", "From how many clinics does {x} receive referrals?",
            "What is the number of clinics referring patients to {x}?"], s, len(ix["referrers"][s.local]))
         for s in w["sites"] if ix["referrers"][s.local]],
    ]


def _members(ents: list[Ent], sup: str, need: str | None = None) -> list[str] | None:
    """Labels of the members of `sup` among ents when 2-5 and at least one is of a strict subclass."""
    inside = [e for e in ents if _is_a(e.cls, sup)]
    if not 2 <= len(inside) <= 5 or not any(e.cls != sup and (need is None or e.cls == need) for e in inside):
        return None
    return _labels(inside)


def _q_subclass_list(w: dict, ix: dict) -> list[list[dict]]:
    docs = [e.label for e in w["clinicians"] if _is_a(e.cls, "Physician")]
    nurses = [e.label for e in w["clinicians"] if _is_a(e.cls, "Nurse")]
    hosp = [e.label for e in w["sites"] if _is_a(e.cls, "Hospital")]
    groups: list[list[dict]] = [[], [], [], [], []]
    for u in w["units"]:
        team = ix["staff"][u.local]
        if a := _members(team, "Physician"):
            groups[0].append(_cand(["Which physicians work on {x}?", "Name the physicians based on {x}.",
                                    "{x} has which physicians on its team?"], u.label, a, docs))
        if a := _members(team, "Nurse"):
            groups[1].append(_cand(["Which nurses work on {x}?", "Name the nurses based on {x}.",
                                    "List every nurse on the team of {x}."], u.label, a, nurses))
    for t in w["cities"]:
        here = ix["town"][t.local]
        if a := _members(here, "Hospital"):
            groups[2].append(_cand(["Which hospitals are located in {x}?", "List the hospitals in {x}.",
                                    "{x} is home to which hospitals?"], t.label, a, hosp))
        if a := _members(here, "HealthcareSite"):
            groups[3].append(_cand(["Which healthcare sites are located in {x}?", "Name every healthcare site in {x}.",
                                    "{x} has which healthcare sites?"], t.label, a, _labels(w["sites"])))
    for sp in w["specialties"]:
        fans = [c for c in w["clinicians"] if c.facts.get("hasSpecialty") is sp]
        if a := _members(fans, "Physician"):
            groups[4].append(_cand(["Which physicians specialise in {x}?", "Name the physicians whose specialty is {x}.",
                                    "List the physicians practising {x}."], sp.label, a, docs))
    return groups


def _q_two_hop(w: dict, ix: dict) -> list[list[dict]]:
    towns, sites, clins = _labels(w["cities"]), _labels(w["sites"]), _labels(w["clinicians"])
    phones = [s.facts["phoneNumber"] for s in w["sites"]]
    site_of = {u.local: u.facts["partOfSite"] for u in w["units"]}
    return [
        [_cand(["In which town is the site that runs {x}?", "{x} belongs to a site in which town?",
                "Name the town of the hospital or clinic that {x} is part of."],
               u.label, site_of[u.local].facts["locatedIn"].label, towns) for u in w["units"]],
        [_cand(["Which site is home to the unit where {x} works?", "{x} works on a unit of which hospital or clinic?",
                "Name the site whose unit {x} is based on."],
               c.label, site_of[c.facts["worksIn"].local].label, sites) for c in w["clinicians"]],
        [_cand(["Who leads the unit that {x} works on?", "Who is the head of the unit where {x} works?",
                "Name the lead clinician of the unit {x} is based on."],
               c.label, c.facts["worksIn"].facts["ledBy"].label, clins)
         for c in w["clinicians"] if "leads" not in c.facts],
        [_cand(["What is the phone number of the site that {x} belongs to?",
                "Which number should I ring for the site that runs {x}?",
                "Give the switchboard number of the hospital or clinic {x} is part of."],
               u.label, site_of[u.local].facts["phoneNumber"], phones) for u in w["units"]],
        [_cand(["In which town is the hospital that {x} refers patients to?",
                "The hospital taking referrals from {x} is in which town?",
                "Name the town of the hospital to which {x} refers its patients."],
               s.label, s.facts["refersTo"].facts["locatedIn"].label, towns) for s in w["sites"] if "refersTo" in s.facts],
    ]


def _q_date(w: dict, ix: dict) -> list[list[dict]]:
    dates = [s.facts["openingDate"] for s in w["sites"]]
    years = [str(y) for y in range(1980, 2023)]
    return [
        [_cand(["When did {x} open?", "On what date did {x} first receive patients?", "What is the opening date of {x}?"],
               s.label, s.facts["openingDate"], dates) for s in w["sites"]],
        [_cand(["In which year did {x} qualify?", "When did {x} gain a professional qualification?",
                "What year did {x} qualify?"], c.label, c.facts["qualificationYear"], years) for c in w["clinicians"]],
    ]


def _q_phrase_property(w: dict, ix: dict) -> list[list[dict]]:
    hosp = [s.label for s in w["sites"] if _is_a(s.cls, "Hospital")]
    specs, clins = _labels(w["specialties"]), _labels(w["clinicians"])
    pops = [str(c.facts["population"]) for c in w["cities"]]
    return [
        [_cand(["To which hospital does {x} send patients on?", "{x} sends patients on to which hospital?",
                "Name the hospital that {x} sends its patients on to."], s.label, s.facts["refersTo"].label, hosp)
         for s in w["sites"] if "refersTo" in s.facts],
        [_cand(["What is the number of inhabitants of {x}?", "How many inhabitants does {x} have?",
                "{x} has what number of inhabitants?"], c.label, str(c.facts["population"]), pops) for c in w["cities"]],
        [_cand(["In which field does {x} practise?", "{x} practises in which field?",
                "What is the field that {x} practises in?"], c.label, c.facts["hasSpecialty"].label, specs)
         for c in w["clinicians"] if "hasSpecialty" in c.facts],
        [_cand(["In which area does {x} provide care?", "{x} provides care in which specialty?",
                "What does {x} provide care in?"], u.label, u.facts["treatsSpecialty"].label, specs) for u in w["units"]],
        [_cand(["Who is {x} headed by?", "{x} is headed by which clinician?", "By whom is {x} headed?"],
               u.label, u.facts["ledBy"].label, clins) for u in w["units"]],
        [_cand(["What floor level is {x} on?", "On which floor level is {x}?", "{x} is at which floor level?"],
               u.label, str(u.facts["floorNumber"]), [str(k) for k in range(1, 7)]) for u in w["units"]],
    ]


KINDS = {"attribute": _q_attribute, "relation": _q_relation, "inverse_list": _q_inverse_list, "count": _q_count,
         "subclass_list": _q_subclass_list, "two_hop": _q_two_hop, "date": _q_date,
         "phrase_property": _q_phrase_property}


def _pick(groups: list[list[dict]], rng: random.Random, n: int) -> list[tuple[int, dict]]:
    """Up to n candidates drawn round-robin from the groups, each with its rank inside its group."""
    pools = [rng.sample(g, len(g)) for g in groups if g]
    out, rank = [], 0
    while len(out) < n and any(pools):
        for pool in pools:
            if pool and len(out) < n:
                out.append((rank, pool.pop()))
        rank += 1
    return out


def _with_options(cand: dict, rng: random.Random, multi: bool) -> tuple[list[str], list[int]]:
    right = list(cand["a"]) if multi else [cand["a"]]
    pool = [x for x in dict.fromkeys(cand["pool"]) if x not in right]
    want = rng.randint(2, 4) if multi else rng.randint(3, 5)
    wrong = rng.sample(pool, min(len(pool), max(want, 4 - len(right)), 8 - len(right)))
    options = right + wrong
    rng.shuffle(options)
    return options, sorted(options.index(r) for r in right)


def _questions(world: dict[str, list[Ent]], rng: random.Random, per_type: int = 12) -> list[dict[str, Any]]:
    ix = _indexes(world)
    out: list[dict[str, Any]] = []
    for kind, make in KINDS.items():
        picked = _pick(make(world, ix), rng, 2 * per_type)
        rng.shuffle(picked)
        for i, (rank, cand) in enumerate(picked):
            text = cand["q"][rank % len(cand["q"])].format(x=cand["x"])
            text = text[0].upper() + text[1:]
            qid = f"health-{kind}-{i + 1:02d}"
            multi = isinstance(cand["a"], list)
            if i < per_type:
                out.append({"id": qid, "kind": kind, "type": "open", "question": text, "answer": cand["a"]})
                continue
            options, answers = _with_options(cand, rng, multi)
            out.append({"id": qid, "kind": kind, "type": "MAQ" if multi else "MCQ", "question": text,
                        "options": options, "answers": answers})
    return out


def generate(seed: int = 7) -> DomainData:
    rng = random.Random(seed)
    world = _build_world(rng)
    return DomainData(name="hospital", schema_ttl=_schema_ttl(), gold_ttl=_gold_ttl(world),
                      pages=_pages(world, rng), questions=_questions(world, rng))
