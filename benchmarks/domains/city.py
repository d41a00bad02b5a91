"""Development domain, held out: the public services of Hollinsford, a city of our own invention.

The city council runs facilities (libraries, swimming pools and sports halls, parks, community
centres) in eight districts. Council officers manage them for the council's departments, each
department has a head of service, councillors represent the districts (some sit in the cabinet for a
department), bus routes pass through the districts and stop at facilities, public events are held at
facilities on a given day, and regular activities run in them each week. `generate(seed)` returns the
OWL schema, the gold instances, one page per facility, person, department, district, bus route and
event, written the way a council web site writes them in seven layouts (a visit-us page with run-in
headings, a news release, an FAQ, a profile in the first or the third person, a fact box with a
paragraph, a bulleted page, a table-like listing), and questions of eleven kinds, open and with
options, every answer taken from the generator's records and said on some page.

Nothing here is worded after the other domains: it exists to measure the pyramid on a schema, pages
and phrasings it was never tuned on.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field
from typing import Any

from benchmarks.domains import DomainData, entity_ttl, in_turn, literal, property_ttl, with_options

NS = "http://example.org/cityservices#"
PREFIXES = (f"@prefix cs: <{NS}> .\n"
            "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
            "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n")
CITY = "Hollinsford"
MAIL = "hollinsford-council.example"
WEB = "www.hollinsford-council.example"
PRESS_LINE = "0113 496 0000"   # the press office; no facility or officer is given this number

# (local name, parent, label, plural, comment)
CLASSES = [
    ("Facility", None, "council facility", "council facilities",
     "A building or open space that the city council provides for the public."),
    ("Library", "Facility", "library", "libraries", "A public library lending books, with study space and computers."),
    ("LeisureFacility", "Facility", "leisure facility", "leisure facilities",
     "A council venue for sport and exercise that charges for entry."),
    ("SwimmingPool", "LeisureFacility", "swimming pool", "swimming pools",
     "An indoor or open-air pool open for public swimming sessions."),
    ("SportsHall", "LeisureFacility", "sports hall", "sports halls",
     "An indoor hall for team sports, fitness classes and matches."),
    ("Park", "Facility", "park", "parks", "A public park, garden or green space looked after by the council."),
    ("CommunityCentre", "Facility", "community centre", "community centres",
     "A building with rooms that local groups, clubs and residents can use."),
    ("District", None, "district", "districts", "One of the areas the city is divided into for services and elections."),
    ("CouncilDepartment", None, "council department", "council departments",
     "A part of the council responsible for one group of services."),
    ("Person", None, "person", "people", "Someone who works for the council or sits on it."),
    ("Councillor", "Person", "councillor", "councillors", "An elected member of the city council who represents a district."),
    ("CouncilOfficer", "Person", "council officer", "council officers", "A paid member of the council's staff."),
    ("FacilityManager", "CouncilOfficer", "facility manager", "facility managers",
     "An officer in day-to-day charge of one or more council facilities."),
    ("Librarian", "CouncilOfficer", "librarian", "librarians", "An officer who runs one or more branch libraries."),
    ("ServiceDirector", "CouncilOfficer", "head of service", "heads of service",
     "The senior officer who leads a council department."),
    ("BusRoute", None, "bus route", "bus routes", "A numbered bus service running through the city."),
    ("Event", None, "public event", "public events",
     "A one-off event open to the public, held at a council facility on a given day."),
    ("Programme", None, "regular activity", "regular activities", "A weekly session, class or club run at a facility."),
]

# (local name, object/datatype, domain, range, label, comment, inverse): camelCase, snake_case and
# single-word names on purpose, labels that are phrases, two inverse pairs
PROPS = [
    ("isLocatedIn", "O", "Facility", "District", "is located in", "The district in which the facility stands.", None),
    ("managed_by", "O", "Facility", "CouncilOfficer", "managed by",
     "The council officer in day-to-day charge of the facility.", "manages"),
    ("manages", "O", "CouncilOfficer", "Facility", "is the manager of",
     "A facility that the officer is in day-to-day charge of.", "managed_by"),
    ("runBy", "O", "Facility", "CouncilDepartment", "is run by", "The council department responsible for the facility.",
     None),
    ("works_for", "O", "CouncilOfficer", "CouncilDepartment", "works for", "The department that employs the officer.",
     None),
    ("represents", "O", "Councillor", "District", "represents", "The district for which the councillor was elected.",
     "represented_by"),
    ("represented_by", "O", "District", "Councillor", "has as ward councillor",
     "A councillor elected for the district.", "represents"),
    ("portfolioFor", "O", "Councillor", "CouncilDepartment", "cabinet member responsible for",
     "The department for which the councillor answers in the council's cabinet.", None),
    ("headedBy", "O", "CouncilDepartment", "ServiceDirector", "is headed by",
     "The head of service who leads the department.", None),
    ("stops_at", "O", "BusRoute", "Facility", "stops at", "A council facility with a stop of the route close by.", None),
    ("passesThrough", "O", "BusRoute", "District", "passes through", "A district the route runs through.", None),
    ("heldAt", "O", "Event", "Facility", "takes place at", "The facility where the event is held.", None),
    ("organised_by", "O", "Event", "CouncilDepartment", "organised by", "The council department putting the event on.",
     None),
    ("offeredAt", "O", "Programme", "Facility", "is offered at", "The facility where the activity runs.", None),
    ("yearOpened", "D", "Facility", "xsd:gYear", "year opened", "The year the facility first opened to the public.",
     None),
    ("street_address", "D", "Facility", "xsd:string", "street address", "The number and street of the way in.", None),
    ("telephone", "D", "Facility", "xsd:string", "telephone number", "The number to ring for the facility.", None),
    ("numberOfLanes", "D", "SwimmingPool", "xsd:integer", "number of lanes", "How many lanes the main pool has.", None),
    ("pool_length_m", "D", "SwimmingPool", "xsd:integer", "pool length in metres", "The length of the main pool.", None),
    ("entranceFee", "D", "LeisureFacility", "xsd:decimal", "adult entrance fee in pounds",
     "What one adult pays for a standard session.", None),
    ("capacity", "D", "Facility", "xsd:integer", "holds up to",
     "The largest number of people allowed in the main space at once.", None),
    ("public_computers", "D", "Library", "xsd:integer", "number of public computers",
     "How many computers the library has for visitors to use.", None),
    ("areaHectares", "D", "Park", "xsd:decimal", "area in hectares", "The size of the park.", None),
    ("contact_email", "D", "Person", "xsd:string", "email address", "The work email address of the person.", None),
    ("direct_line", "D", "Person", "xsd:string", "direct telephone line", "A number that reaches the person.", None),
    ("politicalGroup", "D", "Councillor", "xsd:string", "political group", "The group the councillor sits with.", None),
    ("first_elected", "D", "Councillor", "xsd:gYear", "first elected in",
     "The year the councillor first won a seat on the council.", None),
    ("website", "D", "CouncilDepartment", "xsd:string", "web address", "The department's pages on the council site.",
     None),
    ("postcodeArea", "D", "District", "xsd:string", "postcode area", "The start shared by the district's postcodes.",
     None),
    ("bin_collection_day", "D", "District", "xsd:string", "bin collection day",
     "The weekday on which household waste is collected in the district.", None),
    ("frequency_minutes", "D", "BusRoute", "xsd:integer", "runs every (minutes)",
     "The daytime gap between buses on the route.", None),
    ("operatedBy", "D", "BusRoute", "xsd:string", "operated by", "The bus company that runs the route.", None),
    ("eventDate", "D", "Event", "xsd:date", "takes place on", "The day of the event.", None),
    ("ticket_price", "D", "Event", "xsd:decimal", "ticket price in pounds", "What one ticket to the event costs.", None),
    ("meetingDay", "D", "Programme", "xsd:string", "meets on", "The day (and part of the day) the activity runs.",
     None),
    ("age_group", "D", "Programme", "xsd:string", "suitable for", "Who the activity is meant for.", None),
]
RANGE = {p[0]: p[3] for p in PROPS}
INVERSE = {p[0]: p[6] for p in PROPS if p[6]}
PARENT = {c[0]: c[1] for c in CLASSES}
LABEL = {c[0]: c[2] for c in CLASSES}
PLURAL = {c[0]: c[3] for c in CLASSES}

# (name, postcode area)
DISTRICTS = [("Northgate", "HF1"), ("Old Quay", "HF2"), ("Brindle Hill", "HF3"), ("Saltworks", "HF4"),
             ("Fennick Green", "HF5"), ("Castlegate", "HF6"), ("Tanners Row", "HF7"), ("Ashby Vale", "HF8")]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
# (name, the class of facility it runs or None)
DEPARTMENTS = [("Libraries and Archives", "Library"), ("Leisure and Sport", "LeisureFacility"),
               ("Parks and Open Spaces", "Park"), ("Communities and Neighbourhoods", "CommunityCentre"),
               ("Transport and Streets", None), ("Culture and Events", None)]
# (name, class, district or None for one drawn); some names do not say what the place is
FACILITIES = [
    ("Central Library", "Library", "Castlegate"), ("Northgate Library", "Library", "Northgate"),
    ("Old Quay Library", "Library", "Old Quay"), ("Ashby Vale Library", "Library", "Ashby Vale"),
    ("The Reading Rooms", "Library", None), ("Brindle Hill Library", "Library", "Brindle Hill"),
    ("Fennick Green Lido", "SwimmingPool", "Fennick Green"), ("Quayside Baths", "SwimmingPool", "Old Quay"),
    ("Northgate Swimming Pool", "SwimmingPool", "Northgate"), ("Castlegate Aquatics Centre", "SwimmingPool", "Castlegate"),
    ("The Plunge", "SwimmingPool", None),
    ("Tanners Row Sports Hall", "SportsHall", "Tanners Row"), ("Brindle Hill Arena", "SportsHall", "Brindle Hill"),
    ("The Drill Hall", "SportsHall", None), ("Ashby Vale Sports Centre", "SportsHall", "Ashby Vale"),
    ("Ropewalk Gardens", "Park", None), ("Northgate Common", "Park", "Northgate"), ("Heron Meadows", "Park", None),
    ("Brindle Woods", "Park", "Brindle Hill"), ("Castle Mound", "Park", "Castlegate"),
    ("Saltworks Park", "Park", "Saltworks"), ("Ashby Water Meadows", "Park", "Ashby Vale"),
    ("Tanners Yard Garden", "Park", "Tanners Row"), ("Larkspur Park", "Park", None),
    ("The Lantern", "CommunityCentre", None), ("Fennick Green Community Centre", "CommunityCentre", "Fennick Green"),
    ("Northgate Neighbourhood Hub", "CommunityCentre", "Northgate"), ("Saltworks Hall", "CommunityCentre", "Saltworks"),
    ("Old Quay Community Rooms", "CommunityCentre", "Old Quay"), ("The Kiln", "CommunityCentre", None),
    ("Tanners Row Community Centre", "CommunityCentre", "Tanners Row"),
]
YEARS = {"Library": (1888, 2012), "SwimmingPool": (1902, 2016), "SportsHall": (1958, 2019), "Park": (1851, 1994),
         "CommunityCentre": (1949, 2021)}
STREETS = ("Wharf Street|Chandlery Lane|Mill Race Road|Tenter Lane|Bellfounders Way|Cooperage Row|Sexton Road|"
           "Weavers Walk|Lamplighter Street|Malthouse Lane|Bargeman's Walk|Foundry Street|Saddler Street|Ropemakers Lane|"
           "Glassworks Road|Toll House Road|Quarry Hill|Netmakers Row|Kilnworth Avenue|Tanyard Lane|Cordwainer Street|"
           "Brewhouse Yard|Ferry Approach|Orchard Terrace|Conduit Street|Hayward Road|Pinfold Lane|Market Cross|"
           "Spinners Way|Chapel Fold|Dyers Lane|Hopper Street|Coppice Road|Mariners Close|Fullers Road").split("|")
# regular activities by the class of facility that runs them: (name, who it is for)
PROGRAMMES = {
    "Library": [("Rhyme Time", "babies and toddlers"), ("Coding Club", "8 to 12 year olds"),
                ("Homework Help", "secondary school pupils"), ("Knit and Natter", "adults of any age"),
                ("Family History Drop-in", "adults"), ("Lego Builders", "6 to 11 year olds"),
                ("English Conversation Group", "adult learners of English"),
                ("Computer Help for Beginners", "over 60s")],
    "SwimmingPool": [("Toddler Swim", "under 5s with a parent"), ("Aqua Aerobics", "adults"),
                     ("Lane Swimming for Over-60s", "over 60s"), ("Adult Learn to Swim", "adult non-swimmers"),
                     ("Parent and Baby Splash", "babies with a parent"), ("Teen Swim Squad", "11 to 16 year olds")],
    "SportsHall": [("Walking Football", "over 50s"), ("Badminton for Beginners", "adults"),
                   ("Netball Nights", "women aged 16 and over"), ("Chair Yoga", "older adults"),
                   ("Table Tennis Club", "all ages"), ("Five-a-side League", "adult teams")],
    "CommunityCentre": [("Lunch Club", "older residents"), ("Youth Club", "11 to 18 year olds"),
                        ("Baby and Toddler Group", "under 5s with a carer"), ("Men's Shed", "adults"),
                        ("Community Choir", "anyone who likes to sing"), ("Job Club", "jobseekers"),
                        ("Conversation Café", "adults"), ("Homework Club", "primary school children")],
    "Park": [("Green Gym", "adults"), ("Junior Rangers", "8 to 14 year olds"), ("Nature Detectives", "families")],
}
MEETING_DAYS = ["Mondays", "Tuesday mornings", "Wednesday afternoons", "Thursdays", "Friday evenings",
                "Saturday mornings", "Sundays", "Tuesday evenings", "Wednesdays", "Thursday mornings"]
# (name, the class of its venue or the venue itself, season: days of 2025 it may fall on)
SPRING_TO_AUTUMN, SUMMER, WINTER = (60, 320), (120, 250), (305, 350)
EVENTS = [("Castlegate Book Fair", "Central Library", SPRING_TO_AUTUMN),
          ("Local History Talk: The Old Tannery", "Library", SPRING_TO_AUTUMN),
          ("Poetry Night at the Stacks", "Library", SPRING_TO_AUTUMN), ("Young Coders Showcase", "Library", SUMMER),
          ("Open Water Swim Day", "Fennick Green Lido", SUMMER), ("Inflatable Fun Session", "SwimmingPool", SUMMER),
          ("Lifeguard Taster Day", "SwimmingPool", SPRING_TO_AUTUMN), ("Charity Swimathon", "SwimmingPool", WINTER),
          ("Junior Badminton Tournament", "SportsHall", SPRING_TO_AUTUMN),
          ("Wheelchair Basketball Exhibition", "SportsHall", SPRING_TO_AUTUMN),
          ("Indoor Climbing Taster", "SportsHall", WINTER), ("Summer Picnic Concert", "Park", SUMMER),
          ("Dawn Chorus Walk", "Park", (100, 160)), ("Tree Planting Morning", "Park", WINTER),
          ("Family Fun Run", "Park", SUMMER), ("Kite Festival", "Park", SUMMER), ("Bat Walk at Dusk", "Park", SUMMER),
          ("Fix-It Café", "CommunityCentre", SPRING_TO_AUTUMN), ("Lantern-Making Workshop", "CommunityCentre", WINTER),
          ("Neighbourhood Forum", "CommunityCentre", SPRING_TO_AUTUMN),
          ("Winter Warm Welcome Evening", "CommunityCentre", WINTER)]
NO_ARTICLE = {"Local History Talk: The Old Tannery"}   # prose writes "the Kite Festival", not this one
ROUTES = [3, 7, 12, 15, 21, 24, 30, 41]
OPERATORS = ["Hollinsford Citybus", "Vale Link Coaches", "Greenway Buses"]
GROUPS = ["Civic Alliance", "Hollinsford Independents", "Green Streets", "People First"]
FEMALE = ("Amina Bethan Clodagh Dorota Eilidh Femi Gwen Harriet Ilse Joanna Kirsty Lucia Marnie Nkechi Olwen Petra "
          "Rhiannon Sunita Thea Verity Winifred Zainab Agnieszka Bronwen Cerys Deirdre").split()
MALE = ("Ahmed Barnaby Conor Dominic Eamon Felix Gareth Hugo Ifan Jasper Kwame Lewis Marek Nathaniel Oskar Pavel "
        "Rhodri Sanjay Teodor Vincent Warren Xavier Yannick Zeke Alistair Bartosz").split()
SURNAMES = ("Rahman Pemberton Okonkwo Fairclough Haverstock Lindgren Ashworth Beckwith Colquhoun Dimitriou Eastwood "
            "Farrant Gillespie Hathaway Igwe Jolliffe Kettleborough Latimer Mansell Nairn Pennock Quayle Radcliffe "
            "Stansfield Thackeray Umeh Vickers Westlake Yeoman Zabala Appleyard Brannigan Cheung Dunstan Entwistle "
            "Fogarty Garside Hussain Illingworth Kavanagh Lockwood Mowbray Ndlovu Oduya Pilkington Rowntree Sowerby "
            "Tranter Wardle Yilmaz").split()


@dataclass
class Ent:
    key: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)
    gender: str = "n"


@dataclass
class World:
    districts: list[Ent]
    departments: list[Ent]
    facilities: list[Ent]
    officers: list[Ent] = field(default_factory=list)
    councillors: list[Ent] = field(default_factory=list)
    routes: list[Ent] = field(default_factory=list)
    events: list[Ent] = field(default_factory=list)
    programmes: list[Ent] = field(default_factory=list)

    def groups(self) -> list[list[Ent]]:
        return [self.districts, self.departments, self.facilities, self.officers, self.councillors, self.routes,
                self.events, self.programmes]

    def where(self, prop: str, target: Ent, among: list[Ent]) -> list[Ent]:
        """The entities of `among` whose `prop` is or holds `target` (an inverse look-up)."""
        out = []
        for e in among:
            v = e.facts.get(prop)
            if v is target or (isinstance(v, list) and any(x is target for x in v)):
                out.append(e)
        return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def _is_a(cls: str | None, sup: str) -> bool:
    while cls is not None:
        if cls == sup:
            return True
        cls = PARENT[cls]
    return False


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _day(iso: str, weekday: bool = False) -> str:
    d = dt.date.fromisoformat(iso)
    text = f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    return f"{WEEKDAYS[d.weekday()]} {text}" if weekday else text


# ---------------------------------------------------------------- the world


def _build_world(rng: random.Random) -> World:
    districts = []
    bin_days = [rng.choice(WEEKDAYS[:5]) for _ in DISTRICTS]
    for (name, code), day in zip(DISTRICTS, bin_days):
        districts.append(Ent(f"district_{_slug(name).replace('-', '_')}", name, "District",
                             {"postcodeArea": code, "bin_collection_day": day}))
    departments = [Ent(f"dept_{_slug(n).replace('-', '_')}", n, "CouncilDepartment",
                       {"website": f"{WEB}/{_slug(n.split(' and ')[0])}"}) for n, _ in DEPARTMENTS]
    w = World(districts, departments, _build_facilities(rng, districts, departments))
    people = [(f, s) for f, s in zip(rng.sample(FEMALE + MALE, len(SURNAMES)), rng.sample(SURNAMES, len(SURNAMES)))]
    _build_officers(rng, w, people)
    _build_councillors(rng, w, people)
    _build_routes(rng, w)
    _build_events(rng, w)
    _build_programmes(rng, w)
    return w


def _build_facilities(rng: random.Random, districts: list[Ent], departments: list[Ent]) -> list[Ent]:
    by_name = {d.label: d for d in districts}
    streets = rng.sample(STREETS, len(FACILITIES))
    phones = rng.sample(range(100, 999), len(FACILITIES))
    out = []
    for (name, cls, where), street, phone in zip(FACILITIES, streets, phones):
        f = Ent(f"fac_{_slug(name).replace('-', '_')}", name, cls)
        f.facts["isLocatedIn"] = by_name[where] if where else rng.choice(districts)
        f.facts["runBy"] = next(d for d, (_, runs) in zip(departments, DEPARTMENTS) if runs and _is_a(cls, runs))
        f.facts["yearOpened"] = str(rng.randint(*YEARS[cls]))
        f.facts["street_address"] = f"{rng.randint(1, 140)} {street}"
        if cls != "Park":   # parks have no front desk to ring
            f.facts["telephone"] = f"0113 496 0{phone}"
        if cls == "SwimmingPool":
            f.facts["numberOfLanes"] = rng.randint(4, 8)
            f.facts["pool_length_m"] = 50 if "Lido" in name else rng.choice([20, 25, 25, 33])
        if cls in ("SwimmingPool", "SportsHall"):
            f.facts["entranceFee"] = f"{rng.choice([380, 420, 450, 495, 510, 550, 600, 675, 720]) / 100:.2f}"
        if cls in ("SportsHall", "CommunityCentre"):
            f.facts["capacity"] = rng.randint(12, 60) * 10 if cls == "SportsHall" else rng.randint(4, 25) * 10
        if cls == "Library":
            f.facts["public_computers"] = rng.randint(4, 24)
        if cls == "Park":
            tenths = rng.randint(8, 480)
            f.facts["areaHectares"] = f"{(tenths + (tenths % 10 == 0)) / 10:.1f}"   # "45.0" reads oddly
        out.append(f)
    return out


def _person(people: list, cls: str, prefix: str) -> Ent:
    first, last = people.pop()
    return Ent(f"{prefix}_{_slug(first + ' ' + last).replace('-', '_')}", f"{first} {last}", cls,
               gender="f" if first in FEMALE else "m")


def _build_officers(rng: random.Random, w: World, people: list) -> None:
    """A head for each department; the facilities a department runs shared out among one to three apiece."""
    numbers = iter(rng.sample(range(1000, 9999), 60))
    for dept in w.departments:
        head = _person(people, "ServiceDirector", "officer")
        head.facts["works_for"] = dept
        dept.facts["headedBy"] = head
        staff = [head]
        sites = [f for f in w.facilities if f.facts["runBy"] is dept]
        rng.shuffle(sites)
        while sites:
            n = min(len(sites), rng.choice([1, 1, 2, 2, 3]))
            o = _person(people, "Librarian" if sites[0].cls == "Library" else "FacilityManager", "officer")
            o.facts["works_for"] = dept
            o.facts["manages"] = sites[:n]
            for f in sites[:n]:
                f.facts["managed_by"] = o
            sites = sites[n:]
            staff.append(o)
        for o in staff:
            o.facts["contact_email"] = f"{o.label.split()[0].lower()}.{_slug(o.label.split()[1])}@{MAIL}"
            if rng.random() < 0.7:
                o.facts["direct_line"] = f"0113 496 {next(numbers)}"
        w.officers.extend(staff)


def _build_councillors(rng: random.Random, w: World, people: list) -> None:
    numbers = iter(rng.sample(range(100, 999), 20))
    for d in w.districts:
        d.facts["represented_by"] = []
        for _ in range(2):
            c = _person(people, "Councillor", "cllr")
            c.facts["represents"] = d
            c.facts["politicalGroup"] = rng.choice(GROUPS)
            c.facts["first_elected"] = str(rng.choice(range(1999, 2024, 2)))
            c.facts["contact_email"] = f"cllr.{_slug(c.label.split()[1])}@{MAIL}"
            if rng.random() < 0.6:
                c.facts["direct_line"] = f"07700 900{next(numbers)}"
            d.facts["represented_by"].append(c)
            w.councillors.append(c)
    for c, dept in zip(rng.sample(w.councillors, len(w.departments)), w.departments):
        c.facts["portfolioFor"] = dept


def _build_routes(rng: random.Random, w: World) -> None:
    for n in ROUTES:
        r = Ent(f"route_{n}", f"Route {n}", "BusRoute")
        areas = rng.sample(w.districts, rng.randint(2, 4))
        r.facts["passesThrough"] = areas
        near = [f for f in w.facilities if f.facts["isLocatedIn"] in areas]
        r.facts["stops_at"] = sorted(rng.sample(near, min(len(near), rng.randint(2, 5))),
                                     key=w.facilities.index)
        r.facts["frequency_minutes"] = rng.choice([10, 12, 15, 20, 30, 60])
        r.facts["operatedBy"] = rng.choice(OPERATORS)
        w.routes.append(r)


def _build_events(rng: random.Random, w: World) -> None:
    culture = w.departments[-1]
    taken: set[int] = set()
    for name, where, (first, last) in EVENTS:
        e = Ent(f"event_{_slug(name).replace('-', '_')}", name, "Event")
        venue = rng.choice([f for f in w.facilities if where in (f.cls, f.label)])
        day = rng.randint(first, last)
        while day in taken:   # no two events on one day, so a date names one event
            day = rng.randint(first, last)
        taken.add(day)
        e.facts["heldAt"] = venue
        e.facts["eventDate"] = (dt.date(2025, 1, 1) + dt.timedelta(days=day)).isoformat()
        e.facts["organised_by"] = culture if rng.random() < 0.35 else venue.facts["runBy"]
        if rng.random() < 0.5:
            e.facts["ticket_price"] = f"{rng.choice([250, 300, 400, 500, 750, 1200]) / 100:.2f}"
        w.events.append(e)
    w.events.sort(key=lambda e: e.facts["eventDate"])


def _build_programmes(rng: random.Random, w: World) -> None:
    left = {cls: rng.sample(items, len(items)) for cls, items in PROGRAMMES.items()}
    for f in w.facilities:
        want = rng.choice([0, 0, 1]) if f.cls == "Park" else 1 + (rng.random() < 0.4)
        for _ in range(want):
            if not left[f.cls]:
                break
            name, ages = left[f.cls].pop()
            p = Ent(f"prog_{_slug(name).replace('-', '_')}", name, "Programme")
            p.facts["offeredAt"] = f
            p.facts["meetingDay"] = rng.choice(MEETING_DAYS)
            p.facts["age_group"] = ages
            w.programmes.append(p)


# ---------------------------------------------------------------- Turtle


def _schema_ttl() -> str:
    out = [PREFIXES, f"<{NS[:-1]}> a owl:Ontology ;\n    rdfs:label {literal('Hollinsford city services ontology')} .\n"]
    for local, parent, label, _, comment in CLASSES:
        sup = f" ;\n    rdfs:subClassOf cs:{parent}" if parent else ""
        out.append(f"cs:{local} a owl:Class{sup} ;\n    rdfs:label {literal(label)} ;\n"
                   f"    rdfs:comment {literal(comment)} .\n")
    for local, kind, dom, rng_, label, comment, inverse in PROPS:
        out.append(property_ttl("cs", local, kind == "O", dom, f"cs:{rng_}" if kind == "O" else rng_, label, comment,
                                inverse))
    return "\n".join(out)


def _gold_ttl(w: World) -> str:
    out = [PREFIXES]
    for group in w.groups():
        out += [entity_ttl("cs", e.key, e.cls, e.label, e.facts, RANGE) for e in group]
    return "\n".join(out)


# ---------------------------------------------------------------- what a page can say


@dataclass
class Fact:
    """One thing a page may say, in every form a layout needs. Templates use {S} (the subject: the name
    the first time, then the name, a description or a pronoun), {N} the name, {D} the description and
    {v} the value; `states` are the gold triples (subject key, property, object key or lexical form)."""

    sec: str                                   # about, where, who, what, when, cost, history, contact
    keys: tuple[str, ...]                      # field names for a fact box
    value: str
    says: tuple[str, ...]                      # third person
    asks: tuple[tuple[str, str], ...] = ()     # FAQ question and answer
    bullets: tuple[str, ...] = ()
    mine: tuple[str, ...] = ()                 # first person, for profiles
    states: tuple[tuple[str, str, str], ...] = ()
    core: bool = False                         # never left off a page
    box: str | None = None                     # the value as a fact box shows it, when not `value`
    table: tuple | None = None                 # (caption, header, rows, states) for the table layout


def _cllr(c: Ent) -> str:
    return f"Councillor {c.label}"


def _name(e: Ent) -> str:
    """How prose names an entity: councillors by their title, most events with "the"."""
    if e.cls == "Councillor":
        return _cllr(e)
    if e.cls == "Event" and e.label not in NO_ARTICLE:
        return f"the {e.label}"
    return e.label


def _facility_core(f: Ent, w: World) -> list[Fact]:
    k, cls, d = f.key, f.cls, f.facts["isLocatedIn"]
    a = f.facts["street_address"]
    gate = (("The main entrance is at {v}.", "The main gates open onto {v}.", "Walkers usually come in from {v}.")
            if cls == "Park" else ("{S} is at {v}.", "The address is {v}.", "Our front door is at {v}."))
    return [
        Fact("about", ("Type", "Kind of facility", "What it is"), LABEL[cls],
             # the name, never "the pool": a description would give the type away
             ("{N} is a public {v} run by Hollinsford City Council.", "{N} is one of the city's council-run {pl}.",
              "{N} is a {v} open to everyone who lives in or visits the city."),
             asks=(("What kind of place is {N}?", "{N} is a {v} run by the city council."),),
             bullets=("Council-run {v}", "A public {v}"), states=((k, "type", cls),), core=True),
        Fact("where", ("District", "Area", "Part of the city"), d.label,
             ("{S} is in {v}.", "{S} sits in the {v} district.", "You will find {D} in {v}.",
              "{S} is one of the landmarks of {v}."),
             asks=(("Which part of the city is {N} in?", "{S} is in {v}."),
                   ("What district is {N} in?", "{S} is in the {v} district.")),
             bullets=("In {v}", "{v} district"), states=((k, "isLocatedIn", d.key),), core=True),
        Fact("where", ("Address", "Find us at", "Street address"), a, gate,
             asks=(("What's the address of {N}?", "{S} is at {v}."), ("Where exactly is {N}?", "At {v}.")),
             bullets=("{v}", "Entrance at {v}"), states=((k, "street_address", a),)),
        Fact("history", ("Opened", "Open since", "Year opened"), f.facts["yearOpened"],
             ("{S} was laid out and opened to the public in {v}.", "{S} has been a public park since {v}.")
             if cls == "Park" else
             ("{S} first opened its doors in {v}.", "{S} has been open since {v}.", "{S} dates back to {v}."),
             asks=(("When did {N} open?", "{S} opened in {v}."), ("How old is {N}?", "{S} has been open since {v}.")),
             bullets=("Open since {v}", "Opened in {v}"), states=((k, "yearOpened", f.facts["yearOpened"]),)),
    ] + _facility_people(f) + _facility_numbers(f) + _facility_links(f, w)


def _facility_people(f: Ent) -> list[Fact]:
    k, m, dept = f.key, f.facts["managed_by"], f.facts["runBy"]
    out = [
        Fact("who", ("Manager", "Site manager", "In charge"), m.label,
             ("{S} is managed day to day by {v}.", "{v} is in charge of {D}.",
              "The manager, {v}, and a small team keep {D} running.", "{v} manages {D}."),
             asks=(("Who is the manager at {N}?", "{v} manages {D}."), ("Who is in charge at {N}?", "{v} is.")),
             bullets=("Manager: {v}", "Managed by {v}"), states=((k, "managed_by", m.key),)),
        Fact("who", ("Council service", "Department", "Run by"), dept.label,
             ("{S} is run by the council's {v} department.", "{S} falls under {v}.",
              "{D} comes under the {v} team at the council.", "The {v} team looks after {D}."),
             asks=(("Which part of the council is responsible for {N}?", "{S} falls under {v}."),),
             bullets=("Run by {v}", "Part of {v}"), states=((k, "runBy", dept.key),)),
    ]
    if "telephone" in f.facts:
        out.append(Fact("contact", ("Phone", "Telephone", "Call"), f.facts["telephone"],
                        ("Call {D} on {v}.", "The front desk can be reached on {v}.",
                         "For bookings and enquiries, ring {v}.", "{S} can be contacted by phone on {v}."),
                        asks=(("What's the phone number for {N}?", "You can ring {D} on {v}."),),
                        bullets=("Tel: {v}", "Bookings: {v}"), states=((k, "telephone", f.facts["telephone"]),)))
    return out


def _facility_numbers(f: Ent) -> list[Fact]:
    k, x = f.key, f.facts
    out = []
    if "numberOfLanes" in x:
        out.append(Fact("about", ("Lanes", "Number of lanes"), str(x["numberOfLanes"]),
                        ("The main pool has {v} lanes.", "{S} has {v} swimming lanes.",
                         "There are {v} lanes, so lane swimmers rarely have to wait long."),
                        asks=(("How many lanes are there at {N}?", "The main pool has {v} lanes."),),
                        bullets=("{v} lanes",), states=((k, "numberOfLanes", str(x["numberOfLanes"])),)))
        out.append(Fact("about", ("Pool length", "Length of pool"), str(x["pool_length_m"]),
                        ("The pool is {v} metres long.", "{S} has a {v}-metre main pool."),
                        asks=(("How long is the pool at {N}?", "It's a {v}-metre pool."),), box="{v} m",
                        bullets=("{v}-metre main pool",), states=((k, "pool_length_m", str(x["pool_length_m"])),)))
    if "entranceFee" in x:
        out.append(Fact("cost", ("Adult entry", "Admission (adult)", "Price"), x["entranceFee"],
                        ("An adult session costs £{v}.", "Adult entry is £{v}, with reduced prices for under-16s.",
                         "Pay £{v} on the door for a standard adult session."),
                        asks=(("How much does it cost to get into {N}?", "Adult entry is £{v}."),), box="£{v}",
                        bullets=("Adult entry £{v}", "£{v} per adult session"),
                        states=((k, "entranceFee", x["entranceFee"]),)))
    if "capacity" in x:
        out.append(Fact("about", ("Capacity", "Holds"), str(x["capacity"]),
                        ("The main hall holds up to {v} people.", "{S} can take up to {v} people at a time.",
                         "There is room for {v} people in the main space."),
                        asks=(("How many people can {N} hold?", "Up to {v} people."),), box="{v} people",
                        bullets=("Room for {v} people", "Holds up to {v}"), states=((k, "capacity", str(x["capacity"])),)))
    if "public_computers" in x:
        out.append(Fact("about", ("Public computers", "PCs for visitors"), str(x["public_computers"]),
                        ("There are {v} public computers, free to use with a library card.",
                         "{S} has {v} computers that visitors can book."),
                        asks=(("Does {N} have computers I can use?", "Yes, there are {v} public computers."),),
                        bullets=("{v} public computers", "{v} PCs to book"),
                        states=((k, "public_computers", str(x["public_computers"])),)))
    if "areaHectares" in x:
        out.append(Fact("about", ("Size", "Area"), x["areaHectares"],
                        ("{S} covers {v} hectares.", "{S} stretches over {v} hectares of grass, trees and paths."),
                        asks=(("How big is {N}?", "{S} covers {v} hectares."),), box="{v} hectares",
                        bullets=("{v} hectares of open space",), states=((k, "areaHectares", x["areaHectares"]),)))
    return out


def _facility_links(f: Ent, w: World) -> list[Fact]:
    """The buses, weekly activities and coming events a facility's page may mention."""
    k, out = f.key, []
    routes = w.where("stops_at", f, w.routes)
    if routes:
        names, one = _join([r.label for r in routes]), len(routes) == 1
        out.append(Fact("where", ("Buses", "Bus routes"), names,
                        ("{v} stops close by." if one else "{v} stop close by.",
                         "Take {v}, which stops near {D}." if one else "Buses on {v} stop near {D}."),
                        asks=(("Can I get to {N} by bus?", "Yes: {v} " + ("stops" if one else "stop") + " nearby."),),
                        bullets=("Buses: {v}", "Served by {v}"), states=tuple((r.key, "stops_at", k) for r in routes)))
    for p in w.where("offeredAt", f, w.programmes):
        n, day, age = p.label, p.facts["meetingDay"], p.facts["age_group"]
        out.append(Fact("what", (n,), f"{day}, for {age}",
                        (f"{n} runs on {day} and is aimed at {age}.", f"{n} meets on {day}; it is for {age}.",
                         f"On {day} there is {n}, for {age}."),
                        asks=((f"When is {n}, and who can come?", f"{n} is on {day} and is for {age}."),),
                        bullets=(f"{n}: {day}, for {age}", f"{n} ({day}, {age})"),
                        states=((p.key, "offeredAt", k), (p.key, "meetingDay", day), (p.key, "age_group", age))))
    events = w.where("heldAt", f, w.events)
    if events:
        said = _join([f"{e.label} on {_day(e.facts['eventDate'])}" for e in events])
        out.append(Fact("what", ("Coming up", "Events"), said,
                        ("Coming up at {D}: {v}.", "Dates for your diary: {v}."),
                        asks=(("Are there any events coming up at {N}?", "Yes: {v}."),), bullets=("Coming up: {v}",),
                        states=tuple(s for e in events for s in ((e.key, "heldAt", k),
                                                                  (e.key, "eventDate", e.facts["eventDate"])))))
    return out


def _contact_facts(p: Ent) -> list[Fact]:
    k, mail = p.key, p.facts["contact_email"]
    out = [Fact("contact", ("Email", "E-mail"), mail,
                ("{S} can be emailed at {v}.", "Residents can write to {D} at {v}.", "{S} reads email sent to {v}."),
                mine=("You can email me at {v}.", "The best way to reach me is by email: {v}.",
                      "Drop me a line at {v}."),
                bullets=("Email: {v}", "{v}"), states=((k, "contact_email", mail),))]
    if "direct_line" in p.facts:
        ph = p.facts["direct_line"]
        out.append(Fact("contact", ("Phone", "Direct line") if p.cls != "Councillor" else ("Mobile", "Phone"), ph,
                        ("{S} takes calls on {v}.", "{S} can be reached by phone on {v}."),
                        mine=("You can also ring me on {v}.", "If you would rather talk, my number is {v}."),
                        bullets=("Phone: {v}", "Tel. {v}"), states=((k, "direct_line", ph),)))
    return out


def _councillor_facts(c: Ent, w: World) -> list[Fact]:
    k, d, x = c.key, c.facts["represents"], c.facts
    out = [
        Fact("about", ("Role",), "councillor",
             ("{N} is one of the city's elected councillors.", "{N} serves on Hollinsford City Council."),
             mine=("I am one of your elected city councillors.", "I serve on Hollinsford City Council."),
             bullets=("Elected city councillor",), states=((k, "type", "Councillor"),), core=True),
        Fact("where", ("Ward", "District", "Represents"), d.label,
             ("{S} represents {v} on the city council.", "{S} sits for {v}.", "{S} is one of the two councillors for {v}."),
             mine=("I represent {v} on the city council.", "I am one of the two councillors for {v}.",
                   "It is a privilege to speak up for the people of {v}, the district I represent."),
             bullets=("Councillor for {v}", "Represents {v}"), states=((k, "represents", d.key),), core=True),
        Fact("about", ("Political group", "Group"), x["politicalGroup"],
             ("{S} is a member of the {v} group.", "On the council, {S} sits with the {v} group."),
             mine=("I sit with the {v} group.", "I am a member of the {v} group on the council."),
             bullets=("{v} group",), states=((k, "politicalGroup", x["politicalGroup"]),)),
        Fact("history", ("First elected", "On the council since"), x["first_elected"],
             ("{S} was first elected in {v}.", "{S} has been a councillor since {v}."),
             mine=("I was first elected in {v}.", "I have been on the council since {v}."),
             bullets=("First elected {v}", "Councillor since {v}"), states=((k, "first_elected", x["first_elected"]),)),
    ]
    if "portfolioFor" in x:
        dept = x["portfolioFor"]
        out.append(Fact("who", ("Cabinet portfolio", "Portfolio"), dept.label,
                        ("{S} is the cabinet member for {v}.", "{S} holds the {v} portfolio in the council's cabinet."),
                        mine=("I am the cabinet member responsible for {v}.",
                              "In the cabinet I look after the {v} portfolio."),
                        bullets=("Cabinet member for {v}",), states=((k, "portfolioFor", dept.key),)))
    return out + _contact_facts(c)


def _officer_facts(o: Ent, w: World) -> list[Fact]:
    k, dept = o.key, o.facts["works_for"]
    out = [
        Fact("about", ("Role", "Job title", "Position"), LABEL[o.cls],
             ("{S} is a {v} at the city council.", "{S} works as a {v} for Hollinsford City Council."),
             mine=("I am a {v} at Hollinsford City Council.", "I work as a {v} for the city council."),
             bullets=("Job: {v}",), states=((k, "type", o.cls),), core=True),
        Fact("who", ("Department", "Team", "Service"), dept.label,
             ("{S} works in the {v} department.", "{S} is part of the council's {v} team."),
             mine=("I work in the council's {v} department.", "I am part of the {v} team."),
             bullets=("{v} department", "Team: {v}"), states=((k, "works_for", dept.key),), core=True),
    ]
    if "manages" in o.facts:
        sites = o.facts["manages"]
        out.append(Fact("who", ("Manages", "Looks after"), _join([f.label for f in sites]),
                        ("{S} manages {v}.", "{S} is the manager of {v}.", "Day to day, {S} looks after {v}."),
                        mine=("I manage {v}.", "Day to day, I look after {v}.",
                              "My job is to keep {v} running smoothly."),
                        bullets=("Manager of {v}", "Looks after {v}"),
                        states=tuple((k, "manages", f.key) for f in sites), core=True))
    if o.cls == "ServiceDirector":
        out.append(Fact("who", ("Leads", "Head of"), dept.label,
                        ("{S} heads the {v} department.", "{S} is the head of {v}.",
                         "{S} leads the council's {v} service."),
                        mine=("I lead the {v} department.", "As head of {v}, I answer for all of its services."),
                        bullets=("Head of {v}",), states=((dept.key, "headedBy", k),), core=True))
    return out + _contact_facts(o)


def _department_facts(d: Ent, w: World) -> list[Fact]:
    k, head = d.key, d.facts["headedBy"]
    out = [
        Fact("about", (), "council department",
             ("{N} is one of the departments of Hollinsford City Council.",
              "{N} is a department of the city council."),
             bullets=("A department of the city council",), states=((k, "type", "CouncilDepartment"),), core=True),
        Fact("who", ("Head of service", "Led by"), head.label,
             ("{S} is led by {v}.", "{v} heads {D}.", "The head of service is {v}."),
             asks=(("Who is in charge of {N}?", "{v} is the head of service."),),
             bullets=("Head of service: {v}", "Led by {v}"), states=((k, "headedBy", head.key),), core=True),
        Fact("contact", ("Website", "Online"), d.facts["website"],
             ("More information is online at {v}.", "Forms, news and updates are at {v}."),
             asks=(("Where can I find {N} online?", "Visit {v}."),), bullets=("Online: {v}",),
             states=((k, "website", d.facts["website"]),)),
    ]
    for c in w.where("portfolioFor", d, w.councillors):
        out.append(Fact("who", ("Cabinet member", "Portfolio holder"), _cllr(c),
                        ("{v} speaks for {D} in the council's cabinet.", "The cabinet member responsible is {v}."),
                        asks=(("Which councillor answers for {N}?", "{v} is the cabinet member."),),
                        bullets=("Cabinet member: {v}",), states=((c.key, "portfolioFor", k),)))
    sites = w.where("runBy", d, w.facilities)
    if sites:
        rows = [(f.label, f.facts["isLocatedIn"].label, f.facts["managed_by"].label) for f in sites]
        table = ("Facilities we run", ("Facility", "District", "Manager"), rows,
                 tuple(s for f in sites for s in ((f.key, "runBy", k), (f.key, "isLocatedIn", f.facts["isLocatedIn"].key),
                                                   (f.key, "managed_by", f.facts["managed_by"].key))))
        out.append(Fact("what", ("Facilities", "Sites"), _join([f.label for f in sites]),
                        ("{S} runs {v}.", "The facilities {D} looks after are {v}."),
                        asks=(("Which facilities does {N} run?", "{S} runs {v}."),), bullets=("Runs {v}",),
                        states=tuple((f.key, "runBy", k) for f in sites), table=table))
    staff = [o for o in w.where("works_for", d, w.officers) if o is not head]
    if staff:
        out.append(Fact("who", ("Managers", "Staff"), _join([o.label for o in staff]),
                        ("The managers in {D} are {v}.", "{S} employs {v} as managers."),
                        asks=(("Who works for {N}?", "Besides the head of service, {v}."),),
                        bullets=("Managers: {v}",), states=tuple((o.key, "works_for", k) for o in staff)))
    return out


def _district_facts(d: Ent, w: World) -> list[Fact]:
    k, x = d.key, d.facts
    cllrs = x["represented_by"]
    sites = w.where("isLocatedIn", d, w.facilities)
    rows = [(f.label, LABEL[f.cls], f.facts["street_address"]) for f in sites]
    table = (f"Council facilities in {d.label}", ("Facility", "Type", "Address"), rows,
             tuple(s for f in sites for s in ((f.key, "isLocatedIn", k), (f.key, "type", f.cls),
                                               (f.key, "street_address", f.facts["street_address"]))))
    out = [
        Fact("about", (), "district", ("{N} is one of the eight districts of Hollinsford.",
                                              "{N} is a district of Hollinsford."),
             bullets=("One of the city's eight districts",), states=((k, "type", "District"),), core=True),
        Fact("who", ("Councillors", "Your councillors"), _join([c.label for c in cllrs]),
             ("{S} is represented on the council by Councillors {v}.", "The councillors for {N} are {v}."),
             asks=(("Who are my councillors in {N}?", "Councillors {v}."),), bullets=("Councillors: {v}",),
             states=tuple((c.key, "represents", k) for c in cllrs), core=True),
        Fact("where", ("Postcode area", "Postcodes"), x["postcodeArea"],
             ("Addresses in {N} have postcodes beginning {v}.", "{N} lies in the {v} postcode area."),
             asks=(("What is the postcode area for {N}?", "Postcodes there begin {v}."),),
             bullets=("Postcodes start {v}",), states=((k, "postcodeArea", x["postcodeArea"]),)),
        Fact("when", ("Bin day", "Collection day"), x["bin_collection_day"],
             ("Bin day in {N} is {v}.", "Rubbish and recycling in {N} are collected every {v}."),
             asks=(("What day are the bins collected in {N}?", "Collection day is {v}."),),
             bullets=("Bins collected on {v}",), states=((k, "bin_collection_day", x["bin_collection_day"]),)),
        Fact("what", ("Facilities", "Council facilities"), _join([f.label for f in sites]),
             ("Council facilities in {N}: {v}.", "In {N} the council runs {v}."),
             asks=(("What council facilities are there in {N}?", "{v}."),), bullets=("Facilities: {v}",),
             states=tuple((f.key, "isLocatedIn", k) for f in sites), table=table, core=True),
    ]
    routes = w.where("passesThrough", d, w.routes)
    if routes:
        verb = "runs" if len(routes) == 1 else "run"
        out.append(Fact("where", ("Buses", "Bus routes"), _join([r.label for r in routes]),
                        ("{v} " + verb + " through {N}.", "Buses through {N}: {v}."),
                        asks=(("Which buses go through {N}?", "{v}."),), bullets=("Buses: {v}",),
                        states=tuple((r.key, "passesThrough", k) for r in routes)))
    return out


def _route_facts(r: Ent, w: World) -> list[Fact]:
    k, x = r.key, r.facts
    areas, stops = x["passesThrough"], x["stops_at"]
    rows = [(f.label, f.facts["isLocatedIn"].label) for f in stops]
    table = ("Council facilities on this route", ("Stop for", "District"), rows,
             tuple(s for f in stops for s in ((k, "stops_at", f.key), (f.key, "isLocatedIn", f.facts["isLocatedIn"].key))))
    return [
        Fact("about", (), "bus route", ("{N} is one of the bus routes across Hollinsford.",
                                                "{N} is a city bus service."),
             bullets=("City bus service",), states=((k, "type", "BusRoute"),), core=True),
        Fact("where", ("Areas served", "Districts"), _join([d.label for d in areas]),
             ("{S} runs through {v}.", "{S} links {v}.", "{S} serves {v}."),
             asks=(("Which parts of the city does {N} go through?", "{S} runs through {v}."),),
             bullets=("Through {v}", "Serves {v}"), states=tuple((k, "passesThrough", d.key) for d in areas), core=True),
        Fact("where", ("Council stops", "Stops for"), _join([f.label for f in stops]),
             ("{S} stops at {v}.", "Along the way, {S} calls at {v}."),
             asks=(("Which council facilities can I reach on {N}?", "{S} stops at {v}."),), bullets=("Stops at {v}",),
             states=tuple((k, "stops_at", f.key) for f in stops), table=table, core=True),
        Fact("when", ("Frequency", "How often"), str(x["frequency_minutes"]),
             ("{S} runs every {v} minutes during the day.", "Buses on {D} come every {v} minutes.",
              "In the daytime there is a bus every {v} minutes."),
             asks=(("How often does {N} run?", "Every {v} minutes during the day."),), box="Every {v} minutes",
             bullets=("Every {v} minutes", "A bus every {v} minutes"),
             states=((k, "frequency_minutes", str(x["frequency_minutes"])),)),
        Fact("who", ("Operator", "Run by"), x["operatedBy"],
             ("{S} is operated by {v}.", "{v} runs the service for the council."),
             asks=(("Who runs the buses on {N}?", "{v} operates the route."),), bullets=("Operated by {v}",),
             states=((k, "operatedBy", x["operatedBy"]),)),
    ]


def _event_facts(e: Ent, w: World) -> list[Fact]:
    k, x = e.key, e.facts
    venue, iso, org = x["heldAt"], x["eventDate"], x["organised_by"]
    wd = WEEKDAYS[dt.date.fromisoformat(iso).weekday()]
    out = [
        Fact("about", (), "public event", ("{N} is part of this year's programme of public events in the city.",
                                                  "{N} is one of the city's public events this year."),
             bullets=("Public event",), states=((k, "type", "Event"),), core=True),
        Fact("where", ("Venue", "Where"), venue.label,
             ("{S} takes place at {v}.", "{S} will be held at {v}.", "The venue is {v}."),
             asks=(("Where is {N} taking place?", "At {v}."),), bullets=("Venue: {v}", "At {v}"),
             states=((k, "heldAt", venue.key),), core=True),
        Fact("when", ("Date", "When"), _day(iso),
             ("{S} is on " + wd + " {v}.", "Put " + wd + " {v} in your diary.", "The date to note is {v}."),
             asks=(("When is {N}?", "It's on " + wd + " {v}."),), bullets=(wd + " {v}",), box=wd + " {v}",
             states=((k, "eventDate", iso),), core=True),
        Fact("who", ("Organised by", "Organiser"), org.label,
             ("{S} is organised by the council's {v} team.", "The {v} team is putting on {D}."),
             asks=(("Who is organising {N}?", "The council's {v} team."),), bullets=("Organised by {v}",),
             states=((k, "organised_by", org.key),)),
    ]
    if "ticket_price" in x:
        out.append(Fact("cost", ("Tickets", "Price"), x["ticket_price"],
                        ("Tickets cost £{v}.", "Entry is £{v} per person.", "Admission is £{v}; under-5s go free."),
                        asks=(("Do I need a ticket for {N}?", "Yes, tickets are £{v}."),), box="£{v}",
                        bullets=("Tickets £{v}",), states=((k, "ticket_price", x["ticket_price"]),)))
    else:   # no gold fact: free entry is not a property of the schema
        out.append(Fact("cost", ("Tickets", "Price"), "Free", ("Entry is free and there is no need to book.",
                                                              "There is no charge to come along."),
                        asks=(("Do I need a ticket for {N}?", "No, entry is free."),), bullets=("Free entry",)))
    return out


# ---------------------------------------------------------------- layouts

DESC = {"Library": "the library", "SwimmingPool": "the pool", "SportsHall": "the hall", "Park": "the park",
        "CommunityCentre": "the centre", "District": "the area", "CouncilDepartment": "the department",
        "BusRoute": "the route", "Event": "the event"}
SECTIONS = ["where", "when", "who", "what", "cost", "history", "contact"]
HEADS = {"where": ("Getting there", "Finding us", "Where to find it"),
         "when": ("When", "The date", "Timings"),
         "who": ("Who runs it", "Who looks after it", "Behind the scenes"),
         "what": ("What's on", "Regular sessions", "Things to do"),
         "cost": ("Prices", "What it costs", "Admission"),
         "history": ("A little history", "Background", "Then and now"),
         "contact": ("Get in touch", "Contact", "Questions?")}
WELCOME = {"facility": ("Everyone is welcome.", "We look forward to seeing you.",
                        "Opening hours can change on bank holidays, so check before you travel."),
           "event": ("Everyone is welcome, whatever their age.",
                     "Please check this page before you set off in case plans change because of the weather.")}
# a news release's headline and its lead, in pairs that agree
PRESS = {
    "facility": [("{N} extends its opening hours",
                  "The council has announced that {N} will stay open later on weekday evenings from next month."),
                 ("Improvements completed at {N}",
                  "A programme of repairs at {N} has finished ahead of schedule, the council said today."),
                 ("Residents invited to have their say on the future of {N}",
                  "The council is asking residents how they would like to see {N} used in the years ahead.")],
    "event": [("Date confirmed for {N}", "The council has confirmed the arrangements for {N}."),
              ("{N} returns this year", "Plans for {N} are now in place, the council said today."),
              ("Details announced for {N}", "Organisers are looking forward to welcoming visitors to {N}.")],
    "councillor": [("{N} sets out priorities for the year ahead",
                    "{N} has set out what residents can expect over the coming year."),
                   ("{N} thanks residents for their views", "{N} has thanked residents for their feedback on local services.")],
    "officer": [("Meet the team: {N}", "The council has introduced {N} to residents as part of its meet-the-team series."),
                ("Staff spotlight: {N}", "This month our staff spotlight falls on {N}.")],
    "department": [("{N}: plans for the year ahead",
                    "The council's {N} department has published its plans for the coming year."),
                   ("{N} publishes its annual update", "The {N} department has looked back on a busy year.")],
    "route": [("Timetable reminder for {N}", "Passengers on {N} are being reminded of the latest timetable details."),
              ("{N}: what passengers need to know", "The council has published an update for people who travel on {N}.")],
}
QUOTES = {
    "person": ('"I am here to listen, so please do get in touch," said {N}.',
               '"No two weeks are ever the same, and that is what I enjoy," said {N}.'),
    "other": ('"We want everyone to feel welcome, and we hope to see lots of new faces," a council spokesperson said.',
              '"This is good news for the whole city," said a council spokesperson.',
              '"Residents told us what they wanted, and we have listened," the council said in a statement.'),
}
FAQ_INTRO = ("Here are answers to the questions we are asked most often about {N}.",
             "Can't find what you need? Start with the questions below.",
             "We have gathered the most common questions about {N} in one place.")


class Voice:
    """Fills one page's templates: the subject by name the first time, then by name, description or pronoun."""

    def __init__(self, ctx: dict[str, str], rng: random.Random, named: bool = False):
        self.ctx, self.rng, self.named = ctx, rng, named

    def subject(self) -> str:
        if not self.named:
            self.named = True
            return self.ctx["name"]
        return self.rng.choice([self.ctx["name"], self.ctx["desc"], self.ctx["pron"]])

    def fill(self, template: str, f: Fact) -> str:
        subj = self.subject() if "{S}" in template else ""
        self.named = self.named or "{N}" in template
        return _cap(template.format(S=subj, N=self.ctx["name"], D=self.ctx["desc"], v=f.value, pl=self.ctx["pl"]))

    def say(self, f: Fact) -> str:
        return self.fill(self.rng.choice(f.says), f)

    def mine(self, f: Fact) -> str:
        return self.fill(self.rng.choice(f.mine), f)

    def bullet(self, f: Fact) -> str:
        return self.fill(self.rng.choice(f.bullets), f)


def _visit(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A visit-us page: a short introduction, then run-in headings with sentences after them."""
    v = Voice(ctx, rng)
    forms = ("Visit {N}", "Plan your visit to {N}", "{N}") if ctx["kind"] == "facility" else ("{N}", "{N}: visitor information")
    title = rng.choice(forms).format(N=ctx["title"])
    intro = [v.say(f) for f in facts if f.sec == "about"] + [rng.choice(WELCOME[ctx["kind"]])]
    parts = [title, " ".join(intro)]
    for sec in SECTIONS:
        said = [v.say(f) for f in facts if f.sec == sec]
        if said:
            parts.append(f"{rng.choice(HEADS[sec])} — " + " ".join(said))
    return title, "\n\n".join(parts)


def _press(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A news release: headline, dateline, a lead that names the subject, the facts, a quote, ENDS."""
    kind, name = ctx["kind"], ctx["name"]
    v = Voice(ctx, rng, named=True)
    headline, lead = rng.choice(PRESS[kind])
    title = _cap(headline.format(N=name))
    released = _day((dt.date(2025, 1, 6) + dt.timedelta(days=rng.randint(0, 45))).isoformat())
    body = [v.say(f) for f in facts]
    cut = max(1, len(body) // 2)
    quote = rng.choice(QUOTES["person" if kind in ("councillor", "officer") else "other"]).format(N=name)
    parts = [title, f"News release · {released}", _cap(lead.format(N=name)) + " " + " ".join(body[:cut]),
             " ".join(body[cut:]), quote, "ENDS", f"Media enquiries: council press office, {PRESS_LINE}."]
    return title, "\n\n".join(p for p in parts if p)


def _faq(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """Questions and answers in full sentences; what no question covers closes the page."""
    v = Voice(ctx, rng, named=True)
    name = ctx["name"]
    title = rng.choice(("{N}: frequently asked questions", "Questions about {N}", "{N}: your questions answered"))
    title = title.format(N=ctx["title"])
    intro = [rng.choice(FAQ_INTRO).format(N=name)] + [v.say(f) for f in facts if f.sec == "about" and not f.asks]
    parts, rest = [title, " ".join(intro)], []
    for f in facts:
        if f.asks:
            q, a = rng.choice(f.asks)
            parts.append(f"Q: {v.fill(q, f)}\nA: {v.fill(a, f)}")
        elif f.sec != "about":
            rest.append(v.say(f))
    if rest:
        parts.append("Good to know: " + " ".join(rest))
    return title, "\n\n".join(parts)


def _profile(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A person's page, in the first person (their own words) or the third."""
    title = ctx["title"]
    if rng.random() < 0.5:
        v = Voice(ctx, rng)
        head = rng.choice(("About me", "In my own words", "A few words from {first}")).format(first=ctx["first"])
        opening = rng.choice(("Hello, I'm {first}.", "Thank you for visiting my page.", "Welcome to my page."))
        said = [opening.format(first=ctx["first"])] + [v.mine(f) for f in facts]
    else:
        v = Voice(ctx, rng)
        head = rng.choice(("Profile", "About {N}", "Biography")).format(N=ctx["name"])
        said = [v.say(f) for f in facts]
    cut = 1 + sum(f.sec in ("about", "where") for f in facts)
    paras = [" ".join(said[:cut]), " ".join(said[cut:])]
    return title, "\n\n".join([title, head, *[p for p in paras if p]])


def _factbox(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A compact box of fields, then a paragraph with what the box left out."""
    v = Voice(ctx, rng)
    boxed = [f for f in facts if f.keys and rng.random() < 0.65] or [f for f in facts if f.keys][:1]
    loose = [f for f in facts if all(f is not b for b in boxed)]
    lines = [f"{rng.choice(f.keys)}: {(f.box or '{v}').format(v=f.value)}" for f in boxed]
    para = [v.say(f) for f in loose] or [f"More about {ctx['name']} will be added to this page soon."]
    title = ctx["title"]
    head = rng.choice(("At a glance", "Key facts", "Quick facts"))
    return title, f"{title}\n\n{head}\n" + "\n".join(lines) + "\n\n" + " ".join(para)


def _bullets(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A short introduction, a bulleted list of phrases, and the rest in a closing paragraph."""
    v = Voice(ctx, rng)
    opener = next((f for f in facts if f.sec == "about"), None)
    intro = [v.say(opener)] if opener else []
    others = [f for f in facts if f is not opener]
    listed = [f for f in others if f.bullets and rng.random() < 0.75]
    rest = [v.say(f) for f in others if all(f is not b for b in listed)]
    lead = rng.choice(("Highlights:", "What you'll find:", "Key points:", "The essentials:"))
    title = ctx["title"]
    parts = [title, " ".join(intro) or f"Here is a summary of {title}.", lead + "\n" + "\n".join(
        "• " + v.bullet(f) for f in listed)]
    if rest:
        parts.append(" ".join(rest))
    return title, "\n\n".join(parts)


def _table(ctx: dict, facts: list[Fact], rng: random.Random) -> tuple[str, str]:
    """A listing of the entities it links to as a text table, with sentences around it."""
    v = Voice(ctx, rng)
    tab = next(f for f in facts if f.table)
    caption, header, rows, _ = tab.table
    intro = [v.say(f) for f in facts if f.sec == "about"]
    rest = [v.say(f) for f in facts if f is not tab and f.sec != "about"]
    grid = "\n".join([" | ".join(header)] + [" | ".join(r) for r in rows])
    title = ctx["title"]
    return title, "\n\n".join(p for p in [title, " ".join(intro), f"{caption}\n{grid}", " ".join(rest)] if p)


RENDER = {"visit": _visit, "press": _press, "faq": _faq, "profile": _profile, "factbox": _factbox,
          "bullets": _bullets, "table": _table}
LAYOUTS = {
    "facility": (("visit", 5), ("faq", 2), ("press", 2), ("bullets", 2), ("factbox", 2)),
    "event": (("press", 4), ("visit", 2), ("faq", 2), ("factbox", 1)),
    "councillor": (("profile", 6), ("factbox", 2), ("press", 1)),
    "officer": (("profile", 6), ("factbox", 2), ("press", 1)),
    "district": (("table", 4), ("faq", 2), ("bullets", 1), ("factbox", 1)),
    "department": (("table", 2), ("bullets", 2), ("faq", 1), ("press", 1)),
    "route": (("table", 2), ("faq", 2), ("bullets", 1), ("press", 1)),
}


def _ctx(e: Ent, kind: str) -> dict[str, str]:
    first = e.label.split()[0]
    if kind == "councillor":
        desc = f"Councillor {e.label.split()[-1]}"
    elif kind == "officer":
        desc = first
    else:
        desc = DESC.get(e.cls, "it")
    pron = {"f": "she", "m": "he"}.get(e.gender, "it")
    return {"kind": kind, "name": _name(e), "title": _cllr(e) if kind == "councillor" else e.label, "desc": desc,
            "pron": pron, "first": first, "pl": PLURAL[e.cls]}


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _note(said: set, triple: tuple[str, str, str]) -> None:
    said.add(triple)
    if triple[1] in INVERSE:   # "I manage X" says that X is managed by me
        said.add((triple[2], INVERSE[triple[1]], triple[0]))


def _pages(w: World, rng: random.Random) -> tuple[list[dict[str, Any]], set]:
    """One page per main entity; each page leaves some optional facts out. Also what the pages say, as triples."""
    said: set = set()
    pages = []
    plan = [("district", w.districts, _district_facts), ("department", w.departments, _department_facts),
            ("facility", w.facilities, _facility_core), ("councillor", w.councillors, _councillor_facts),
            ("officer", w.officers, _officer_facts), ("route", w.routes, _route_facts), ("event", w.events, _event_facts)]
    for kind, ents, make in plan:
        for e in ents:
            kept = [f for f in make(e, w) if f.core or rng.random() < 0.8]
            choices = [(name, n) for name, n in LAYOUTS[kind] if name != "table" or any(f.table for f in kept)]
            layout = rng.choices([c for c, _ in choices], weights=[n for _, n in choices])[0]
            title, text = RENDER[layout](_ctx(e, kind), kept, rng)
            for f in kept:
                for t in (f.table[3] if layout == "table" and f.table else f.states):
                    _note(said, t)
            pages.append({"id": f"{kind}-{_slug(e.label)}", "title": title, "text": text, "about": NS + e.key,
                          "layout": layout})
    return pages, said


# ---------------------------------------------------------------- questions
# A candidate: phrasings of the question ({x} the entity), x, the answer (a list when several), a pool of
# wrong options of the same sort, and whether it is asked open, with options or both. Each kind returns
# groups of candidates (one per sort), taken in turn so that a kind mixes its sorts.


def _c(q: list[str], x: str, a: str | list[str], pool: list[str], mode: str = "both") -> dict[str, Any]:
    if isinstance(a, list) and len(a) == 1:
        a = a[0]
    return {"q": q, "x": x, "a": a, "pool": pool, "mode": mode}


def _q_attribute(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    fac, dis, pro = w.facilities, w.districts, w.programmes
    addresses = [f.facts["street_address"] for f in fac]
    return [
        [_c(["What's the address of {x}?", "I'm trying to find {x}. What street address should I head for?"],
            f.label, f.facts["street_address"], addresses)
         for f in fac if (f.key, "street_address", f.facts["street_address"]) in said],
        [_c(["Which postcode area is {x} in?", "What do postcodes in {x} start with?"], d.label,
            d.facts["postcodeArea"], [c for _, c in DISTRICTS]) for d in dis
         if (d.key, "postcodeArea", d.facts["postcodeArea"]) in said],
        [_c(["Which day are the bins emptied in {x}?", "I've just moved to {x}. What day is bin day?"], d.label,
            d.facts["bin_collection_day"], WEEKDAYS[:5]) for d in dis
         if (d.key, "bin_collection_day", d.facts["bin_collection_day"]) in said],
        [_c(["Which bus company runs {x}?", "Who operates the buses on {x}?"], r.label, r.facts["operatedBy"],
            OPERATORS) for r in w.routes if (r.key, "operatedBy", r.facts["operatedBy"]) in said],
        [_c(["On what day does {x} meet?", "When in the week is {x} on?"], p.label, p.facts["meetingDay"],
            MEETING_DAYS) for p in pro if (p.key, "meetingDay", p.facts["meetingDay"]) in said],
        [_c(["Who is {x} meant for?", "What age group is {x} aimed at?"], p.label, p.facts["age_group"],
            [o.facts["age_group"] for o in pro]) for p in pro if (p.key, "age_group", p.facts["age_group"]) in said],
        [_c(["Which political group does {x} belong to?", "What group does {x} sit with on the council?"], _cllr(c),
            c.facts["politicalGroup"], GROUPS) for c in w.councillors
         if (c.key, "politicalGroup", c.facts["politicalGroup"]) in said],
    ]


def _q_contact(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    people = w.councillors + w.officers
    mails = [p.facts["contact_email"] for p in people]
    lines = [p.facts["direct_line"] for p in people if "direct_line" in p.facts]
    phones = [f.facts["telephone"] for f in w.facilities if "telephone" in f.facts]
    return [
        [_c(["What's the email address for {x}?", "How do I email {x}?"], _name(p), p.facts["contact_email"], mails)
         for p in people if (p.key, "contact_email", p.facts["contact_email"]) in said],
        [_c(["What number should I ring to speak to {x}?", "What is {x}'s phone number?"], _name(p),
            p.facts["direct_line"], lines) for p in people
         if "direct_line" in p.facts and (p.key, "direct_line", p.facts["direct_line"]) in said],
        [_c(["What's the phone number for {x}?", "I need to ring {x}. Which number do I call?"], f.label,
            f.facts["telephone"], phones) for f in w.facilities
         if "telephone" in f.facts and (f.key, "telephone", f.facts["telephone"]) in said],
        [_c(["Where can I find the {x} department online?", "What's the web address for {x}?"], d.label,
            d.facts["website"], [o.facts["website"] for o in w.departments]) for d in w.departments
         if (d.key, "website", d.facts["website"]) in said],
    ]


def _one_hop(ents: list[Ent], prop: str, said: set, q: list[str], pool: list[str], x=_name) -> list[dict]:
    out = []
    for e in ents:
        o = e.facts.get(prop)
        if isinstance(o, Ent) and (e.key, prop, o.key) in said:
            out.append(_c(q, x(e), o.label, pool))
    return out


def _q_relation(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    fac, depts = w.facilities, [d.label for d in w.departments]
    staff = [o.label for o in w.officers]
    return [
        _one_hop(fac, "isLocatedIn", said, ["Which district is {x} in?", "What part of town is {x} in?"],
                 [d.label for d in w.districts]),
        _one_hop(fac, "managed_by", said, ["Who manages {x}?", "Who is the manager at {x}?"], staff),
        _one_hop(fac, "runBy", said, ["Which council department is responsible for {x}?",
                                      "Which part of the council runs {x}?"], depts),
        _one_hop(w.events, "heldAt", said, ["Where is {x} being held?", "Which venue is hosting {x}?"],
                 [f.label for f in fac]),
        _one_hop(w.councillors, "represents", said, ["Which district does {x} represent?",
                                                     "{x} is a councillor for which part of the city?"],
                 [d.label for d in w.districts]),
        _one_hop(w.officers, "works_for", said, ["Which department does {x} work for?",
                                                 "Which council team is {x} part of?"], depts),
        _one_hop(w.departments, "headedBy", said, ["Who heads the {x} department?",
                                                   "Who is the head of service for {x}?"], staff),
        _one_hop(w.programmes, "offeredAt", said, ["Where can I go to {x}?", "Which facility runs {x}?"],
                 [f.label for f in fac]),
        _one_hop(w.councillors, "portfolioFor", said, ["Which department is {x} the cabinet member for?"], depts),
        _one_hop(w.events, "organised_by", said, ["Which council department is organising {x}?"], depts),
    ]


def _inverse(pairs: list[tuple[Ent, list[Ent]]], prop: str, said: set, q: list[str], pool: list[str],
             reverse: bool = False, name=_name) -> list[dict]:
    """Candidates asking for all the entities linked to one; every link must be said on some page."""
    out = []
    for x, items in pairs:
        links = [(i.key, prop, x.key) if reverse else (x.key, prop, i.key) for i in items]
        if items and all(t in said for t in links):
            out.append(_c(q, name(x), [i.label for i in items], pool))
    return out


def _q_inverse_list(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    fac = [f.label for f in w.facilities]
    return [
        _inverse([(o, o.facts["manages"]) for o in w.officers if "manages" in o.facts], "manages", said,
                 ["Which facilities does {x} manage?", "What does {x} look after?"], fac),
        _inverse([(d, d.facts["represented_by"]) for d in w.districts], "represented_by", said,
                 ["Who are the councillors for {x}?", "Which councillors represent {x}?"],
                 [c.label for c in w.councillors]),
        _inverse([(r, r.facts["passesThrough"]) for r in w.routes], "passesThrough", said,
                 ["Which districts does {x} pass through?", "Which parts of the city does {x} serve?"],
                 [d.label for d in w.districts]),
        _inverse([(f, w.where("stops_at", f, w.routes)) for f in w.facilities], "stops_at", said,
                 ["Which bus routes stop at {x}?", "Which buses can I take to {x}?"], [r.label for r in w.routes],
                 reverse=True),
        _inverse([(f, w.where("offeredAt", f, w.programmes)) for f in w.facilities], "offeredAt", said,
                 ["What regular activities are on at {x}?", "Which weekly sessions does {x} run?"],
                 [p.label for p in w.programmes], reverse=True),
        _inverse([(d, [o for o in w.where("works_for", d, w.officers) if o is not d.facts["headedBy"]])
                  for d in w.departments], "works_for", said,
                 ["Apart from the head of service, who works for the {x} department?"],
                 [o.label for o in w.officers], reverse=True),
        _inverse([(d, w.where("passesThrough", d, w.routes)) for d in w.districts], "passesThrough", said,
                 ["Which bus routes run through {x}?"], [r.label for r in w.routes], reverse=True),
        _inverse([(f, w.where("heldAt", f, w.events)) for f in w.facilities], "heldAt", said,
                 ["Which events are coming up at {x}?"], [e.label for e in w.events], reverse=True),
    ]


def _q_two_hop(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    dis, staff = [d.label for d in w.districts], [o.label for o in w.officers]
    g_mgr, g_venue_mgr, g_venue_dis, g_cllr, g_head, g_prog = [], [], [], [], [], []
    for o in w.officers:
        sites = o.facts.get("manages", [])
        if sites and all((f.key, "managed_by", o.key) in said and (f.key, "isLocatedIn", f.facts["isLocatedIn"].key)
                         in said for f in sites):
            where = list(dict.fromkeys(f.facts["isLocatedIn"].label for f in sites))
            g_mgr.append(_c(["In which district is the facility that {x} manages?"] if len(sites) == 1 else
                            ["In which districts are the facilities that {x} manages?"], o.label, where, dis))
    for e in w.events:
        v = e.facts["heldAt"]
        if (e.key, "heldAt", v.key) not in said:
            continue
        if (v.key, "managed_by", v.facts["managed_by"].key) in said:
            g_venue_mgr.append(_c(["Who manages the venue where {x} is being held?",
                                   "Who is in charge of the place hosting {x}?"], _name(e), v.facts["managed_by"].label,
                                  staff))
        if (v.key, "isLocatedIn", v.facts["isLocatedIn"].key) in said:
            g_venue_dis.append(_c(["Which district is {x} taking place in?", "What part of the city is {x} in?"],
                                  _name(e), v.facts["isLocatedIn"].label, dis))
    for f in w.facilities:
        d, dept = f.facts["isLocatedIn"], f.facts["runBy"]
        cllrs = d.facts["represented_by"]
        if (f.key, "isLocatedIn", d.key) in said and all((c.key, "represents", d.key) in said for c in cllrs):
            g_cllr.append(_c(["Who are the councillors for the district where {x} is?",
                              "I live near {x}. Who are my local councillors?"], f.label, [c.label for c in cllrs],
                             [c.label for c in w.councillors]))
        if (f.key, "runBy", dept.key) in said and (dept.key, "headedBy", dept.facts["headedBy"].key) in said:
            g_head.append(_c(["Who heads the department that runs {x}?",
                              "Who is the head of service responsible for {x}?"], f.label,
                             dept.facts["headedBy"].label, staff))
    for p in w.programmes:
        f = p.facts["offeredAt"]
        if (p.key, "offeredAt", f.key) in said and (f.key, "isLocatedIn", f.facts["isLocatedIn"].key) in said:
            g_prog.append(_c(["I'd like to join {x}. Which district would I need to go to?",
                              "In which district does {x} take place?"], p.label, f.facts["isLocatedIn"].label, dis))
    return [g_mgr, g_venue_mgr, g_venue_dis, g_cllr, g_head, g_prog]


def _near(n: int) -> list[str]:
    return [str(n + d) for d in (-2, -1, 1, 2, 3) if n + d >= 0]


def _counted(pairs: list[tuple[Ent, list[Ent], list[tuple]]], said: set, q: list[str]) -> list[dict]:
    return [_c(q, _name(x), str(len(items)), _near(len(items))) for x, items, links in pairs
            if items and all(t in said for t in links)]


def _q_count(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    located = all((f.key, "isLocatedIn", f.facts["isLocatedIn"].key) in said for f in w.facilities)
    by_class = []
    for d in w.districts if located else []:
        for cls in ("Library", "SwimmingPool", "SportsHall", "Park", "CommunityCentre", "Facility"):
            n = sum(_is_a(f.cls, cls) and f.facts["isLocatedIn"] is d for f in w.facilities)
            if n:
                by_class.append(_c([f"How many {PLURAL[cls]} are there in {{x}}?",
                                    f"How many {PLURAL[cls]} does the council have in {{x}}?"], d.label, str(n), _near(n)))
    ins = lambda prop, ents, among: [(x, w.where(prop, x, among), [(i.key, prop, x.key) for i in w.where(prop, x, among)])
                                     for x in ents]
    return [
        by_class,
        _counted([(o, o.facts["manages"], [(o.key, "manages", f.key) for f in o.facts["manages"]])
                  for o in w.officers if "manages" in o.facts], said,
                 ["How many facilities does {x} manage?", "How many sites is {x} responsible for?"]),
        _counted([(r, r.facts["stops_at"], [(r.key, "stops_at", f.key) for f in r.facts["stops_at"]]) for r in w.routes],
                 said, ["How many council facilities does {x} stop at?"]),
        _counted(ins("offeredAt", w.facilities, w.programmes), said,
                 ["How many regular activities are on at {x}?", "How many weekly sessions does {x} run?"]),
        _counted(ins("runBy", w.departments, w.facilities), said, ["How many facilities does the {x} department run?"]),
        _counted([(f, w.where("stops_at", f, w.routes), [(r.key, "stops_at", f.key) for r in w.where("stops_at", f, w.routes)])
                  for f in w.facilities], said, ["How many bus routes stop at {x}?"]),
    ]


def _q_class_list(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    pool = [f.label for f in w.facilities]
    in_district, leisure, every, on_route = [], [], [], []
    for d in w.districts:
        here = [f for f in w.facilities if f.facts["isLocatedIn"] is d and (f.key, "isLocatedIn", d.key) in said]
        for cls in ("Library", "SwimmingPool", "SportsHall", "Park", "CommunityCentre"):
            hits = [f.label for f in here if f.cls == cls]
            if hits:
                in_district.append(_c([f"Which {PLURAL[cls]} are there in {{x}}?",
                                       f"Can you list the council's {PLURAL[cls]} in {{x}}?"], d.label, hits, pool))
        hits = [f.label for f in here if _is_a(f.cls, "LeisureFacility")]
        if hits:   # the superclass: a pool and a sports hall are both leisure facilities
            leisure.append(_c(["Which leisure facilities does the council run in {x}?",
                               "Where can I go swimming or play indoor sport in {x}?"], d.label, hits, pool))
        if here:
            every.append(_c(["Which council facilities are there in {x}?"], d.label, [f.label for f in here], pool))
    for r in w.routes:
        for cls in ("Library", "SwimmingPool", "SportsHall", "Park", "CommunityCentre"):
            hits = [f.label for f in r.facts["stops_at"] if f.cls == cls and (r.key, "stops_at", f.key) in said]
            if hits:
                on_route.append(_c([f"Which {PLURAL[cls]} can I get to on {{x}}?"], r.label, hits, pool))
    return [in_district, leisure, every, on_route]


def _q_class_membership(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    kinds = ["Library", "SwimmingPool", "SportsHall", "Park", "CommunityCentre"]
    opens = [_c(["What kind of place is {x}?", "What sort of council facility is {x}?"], f.label, LABEL[f.cls],
                [LABEL[k] for k in kinds], "open") for f in w.facilities
             if (f.key, "type", f.cls) in said and not any(w_ in f.label.casefold() for w_ in
                                                           ("library", "pool", "hall", "park", "centre"))]
    jobs = [_c(["What is {x}'s job at the council?", "What does {x} do for the council?"], o.label, LABEL[o.cls],
               [LABEL[k] for k in ("FacilityManager", "Librarian", "ServiceDirector")], "open")
            for o in w.officers if (o.key, "type", o.cls) in said]
    one, several = [], []
    for cls in kinds + ["LeisureFacility"]:
        members = [f for f in w.facilities if _is_a(f.cls, cls) and (f.key, "type", f.cls) in said]
        others = [f.label for f in w.facilities if not _is_a(f.cls, cls)]
        one += [_c([f"Which of these is a {LABEL[cls]}?"], "", m.label,
                   others, "options") for m in members]
        if len(members) >= 2:
            several.append(_c([f"Which of these are {PLURAL[cls]}?"], "", [m.label for m in rng.sample(members, 2)],
                              others, "options"))
    for cls in ("Librarian", "FacilityManager", "ServiceDirector"):
        members = [o for o in w.officers if o.cls == cls and (o.key, "type", cls) in said]
        others = [o.label for o in w.officers if o.cls != cls]
        one += [_c([f"Which of these people is a {LABEL[cls]}?"], "", m.label, others, "options") for m in members]
    return [opens, jobs, one, several]


def _q_date(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    days = [_day(e.facts["eventDate"]) for e in w.events]
    return [[_c(["When is {x}?", "What date is {x} on?", "Which day should I keep free for {x}?"], _name(e),
                _day(e.facts["eventDate"]), days) for e in w.events if (e.key, "eventDate", e.facts["eventDate"]) in said]]


def _attr(ents: list[Ent], prop: str, said: set, q: list[str], near: bool = False) -> list[dict]:
    values = [str(e.facts[prop]) for e in ents if prop in e.facts]
    out = []
    for e in ents:
        v = str(e.facts.get(prop, ""))
        if v and (e.key, prop, v) in said:
            pool = values + (_near(int(v)) if near else [])
            out.append(_c(q, _name(e), v, pool))
    return out


def _q_year(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    return [_attr(w.facilities, "yearOpened", said, ["When did {x} open?", "What year did {x} first open?"]),
            _attr(w.councillors, "first_elected", said, ["When was {x} first elected?",
                                                         "Since what year has {x} been on the council?"])]


def _q_numeric(w: World, said: set, rng: random.Random) -> list[list[dict]]:
    fac = w.facilities
    return [
        _attr(fac, "numberOfLanes", said, ["How many lanes does {x} have?"], near=True),
        _attr(fac, "pool_length_m", said, ["How long is the pool at {x}, in metres?"], near=True),
        _attr(fac, "capacity", said, ["How many people can {x} hold?", "What is the capacity of {x}?"]),
        _attr(fac, "public_computers", said, ["How many public computers are there at {x}?"], near=True),
        _attr(fac, "areaHectares", said, ["How many hectares does {x} cover?", "How big is {x}, in hectares?"]),
        _attr(fac, "entranceFee", said, ["How much does an adult pay to get into {x}, in pounds?",
                                         "What is the adult entrance fee at {x}?"]),
        _attr(w.events, "ticket_price", said, ["How much is a ticket for {x}?"]),
        _attr(w.routes, "frequency_minutes", said, ["How often does {x} run, in minutes?",
                                                    "How many minutes are there between buses on {x}?"], near=True),
    ]


KINDS = {"attribute": _q_attribute, "contact": _q_contact, "relation": _q_relation, "inverse_list": _q_inverse_list,
         "two_hop": _q_two_hop, "count": _q_count, "class_list": _q_class_list,
         "class_membership": _q_class_membership, "date": _q_date, "year": _q_year, "numeric": _q_numeric}


def _questions(w: World, said: set, rng: random.Random, per_kind: int = 6) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, make in KINDS.items():
        order = in_turn(make(w, said, rng), rng)
        opens = [c for c in order if c["mode"] != "options"][:per_kind]
        chosen = [c for c in order if c["mode"] != "open" and all(c is not o for o in opens)][:per_kind]
        for i, c in enumerate(opens + chosen):
            text = rng.choice(c["q"]).format(x=c["x"])
            q = {"id": f"city-{kind}-{i + 1:02d}", "kind": kind, "question": _cap(text)}
            if i < len(opens):
                out.append({**q, "type": "open", "answer": c["a"]})
                continue
            options, answers = with_options(c["a"], c["pool"], rng)
            out.append({**q, "type": "MAQ" if len(answers) > 1 else "MCQ", "options": options, "answers": answers})
    return out


def generate(seed: int = 7) -> DomainData:
    rng = random.Random(seed)
    world = _build_world(rng)
    pages, said = _pages(world, rng)
    return DomainData(name="city", schema_ttl=_schema_ttl(), gold_ttl=_gold_ttl(world), pages=pages,
                      questions=_questions(world, said, rng))
