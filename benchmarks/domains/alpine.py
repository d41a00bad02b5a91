"""Development domain, held out: the mountain huts, routes, summits and guides of the Carmenza Alps.

The Carmenza Alpine Club, a club of our own invention, has five local sections. They own the shelters
of six valleys (staffed huts, bivouacs and self-catering refuges); wardens keep the staffed huts,
volunteers help at the shelters, waymarked hiking trails and via ferratas link the villages, the
shelters and the summits, and licensed mountain guides lead guided tours on those routes on given
days of the summer. `generate(seed)` returns the OWL schema, the gold instances, one page per
shelter, route, summit, village, valley, section, person and tour, written the way club, hut and
walkers' web sites write them in eight layouts (a walker's trip report, a hut's welcome page in the
second person, a news item with a date line and a quote, a page of questions and answers, a
guidebook entry with run-in headings, a fact sheet of labelled lines, a profile in the first or the
third person, a listing with a text table), and questions of eleven kinds, open and with options,
every answer taken from the generator's records and said on some page.

Nothing here is worded after the other domains: it exists to measure the pyramid on a schema, pages
and phrasings it was never tuned on.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from benchmarks.domains import DomainData, entity_ttl, in_turn, literal, with_options

NS = "http://example.org/alpineclub#"
PREFIXES = (f"@prefix ac: <{NS}> .\n"
            "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
            "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n")
CLUB = "Carmenza Alpine Club"
RANGE_NAME = "Carmenza Alps"

# (local name, parent, label, plural, comment)
CLASSES = [
    ("Place", None, "place", "places",
     "Somewhere on the map of the range: a valley, a village, a shelter or a summit."),
    ("Shelter", "Place", "mountain shelter", "mountain shelters",
     "A building in the mountains where walkers and climbers can spend the night."),
    ("StaffedHut", "Shelter", "staffed hut", "staffed huts",
     "A shelter with a warden on duty through the season who cooks and takes bookings."),
    ("Bivouac", "Shelter", "bivouac", "bivouacs",
     "A small unmanned shelter high on a mountain, with a few bunks and no services."),
    ("Refuge", "Shelter", "self-catering refuge", "self-catering refuges",
     "An unstaffed hut left open for walkers who bring and cook their own food."),
    ("Summit", "Place", "summit", "summits", "The top of a mountain that a route leads to."),
    ("Village", "Place", "village", "villages", "A settlement in a valley where routes start and guides live."),
    ("Valley", "Place", "valley", "valleys", "One of the main valleys of the range."),
    ("Trail", None, "route", "routes", "A waymarked way through the mountains, on foot or with a harness."),
    ("HikingTrail", "Trail", "hiking trail", "hiking trails", "A path walked on foot, graded on the T scale."),
    ("ViaFerrata", "Trail", "via ferrata", "via ferratas",
     "A protected climbing route fitted with steel cables, rungs and ladders, graded on the K scale."),
    ("Person", None, "person", "people", "Someone who works or volunteers in the club's mountains."),
    ("HutWarden", "Person", "hut warden", "hut wardens", "The person who runs a staffed hut through the season."),
    ("MountainGuide", "Person", "mountain guide", "mountain guides", "A professional licensed to lead groups."),
    ("Volunteer", "Person", "volunteer", "volunteers", "A club member who gives time to help at a shelter."),
    ("ClubSection", None, "club section", "club sections", "A local branch of the Carmenza Alpine Club."),
    ("GuidedTour", None, "guided tour", "guided tours", "A day out with a guide on a given date, open to the public."),
]

# (local name, object or datatype, domain (a tuple: the union), range, label, comment, inverse). Names
# mix camelCase, snake_case and single words on purpose; the labels are phrases, not the names.
PROPS = [
    ("locatedIn", "O", "Shelter", "Valley", "stands in the valley of",
     "The valley a shelter belongs to, the one it is reached from.", None),
    ("owned_by", "O", "Shelter", "ClubSection", "is the property of",
     "The club section that owns the building and pays for its upkeep.", "owns"),
    ("owns", "O", "ClubSection", "Shelter", "has in its care", "A shelter that belongs to the section.", "owned_by"),
    ("wardenOf", "O", "HutWarden", "StaffedHut", "looks after",
     "A staffed hut the warden runs during the season.", "keptBy"),
    ("keptBy", "O", "StaffedHut", "HutWarden", "is kept by", "The warden who runs the hut in season.", "wardenOf"),
    ("trail_start", "O", "Trail", "Place", "sets off from", "The village or shelter where the route begins.", None),
    ("trail_end", "O", "Trail", "Place", "comes out at", "The village or shelter where the route finishes.", None),
    ("reaches", "O", "Trail", "Summit", "leads to the top of", "A summit that the route climbs to.", None),
    ("summitIn", "O", "Summit", "Valley", "rises above", "The valley the summit stands over.", None),
    ("village_valley", "O", "Village", "Valley", "lies in", "The valley the village is in.", None),
    ("basedIn", "O", "ClubSection", "Village", "has its office in",
     "The village where the section keeps its office and holds its meetings.", None),
    ("certifiedBy", "O", "MountainGuide", "ClubSection", "holds a licence from",
     "The section that examined and licensed the guide.", None),
    ("worksFrom", "O", "MountainGuide", "Village", "is based in", "The village the guide works out of.", None),
    ("helpsAt", "O", "Volunteer", "Shelter", "lends a hand at", "A shelter where the volunteer gives time.", None),
    ("ledBy", "O", "GuidedTour", "MountainGuide", "is guided by", "The mountain guide in charge of the group.", None),
    ("follows", "O", "GuidedTour", "Trail", "takes the route of", "The route the tour walks or climbs.", None),
    ("tour_start", "O", "GuidedTour", "Shelter", "meets at", "The shelter where the group gathers.", None),
    ("elevation_m", "D", "Place", "xsd:integer", "height above sea level in metres",
     "How high the place is, in whole metres.", None),
    ("beds", "D", "Shelter", "xsd:integer", "sleeping places", "How many people can sleep there at once.", None),
    ("builtIn", "D", "Shelter", "xsd:gYear", "year of construction", "The year the present building went up.", None),
    ("opening_month", "D", "StaffedHut", "xsd:string", "season opens in",
     "The month in which the warden opens the hut for the summer.", None),
    ("priceNight", "D", "StaffedHut", "xsd:decimal", "overnight price in euros",
     "What one adult pays for a bed for one night, without meals.", None),
    ("phone", "D", ("StaffedHut", "MountainGuide"), "xsd:string", "telephone number",
     "The number to ring to book a bed or a guide.", None),
    ("e_mail", "D", ("MountainGuide", "ClubSection"), "xsd:string", "e-mail address",
     "The address to write to.", None),
    ("homepage", "D", ("StaffedHut", "ClubSection"), "xsd:string", "web address", "The site's address.", None),
    ("length_km", "D", "Trail", "xsd:decimal", "distance in kilometres", "How far the route is, end to end.", None),
    ("walkingTime", "D", "Trail", "xsd:decimal", "hours on foot",
     "The time the signposts give for the whole route, in hours.", None),
    ("grade", "D", "Trail", "xsd:string", "difficulty rating",
     "The club's grade: T1 to T6 for paths, K1 to K6 for via ferratas.", None),
    ("wardenSince", "D", "HutWarden", "xsd:gYear", "hut warden since",
     "The year the person first took charge of a hut.", None),
    ("task", "D", "Volunteer", "xsd:string", "main job", "What the volunteer mostly does.", None),
    ("founded", "D", "ClubSection", "xsd:gYear", "founded in", "The year the section was set up.", None),
    ("tourDate", "D", "GuidedTour", "xsd:date", "takes place on", "The day of the tour.", None),
    ("fee", "D", "GuidedTour", "xsd:decimal", "price per person in euros", "What one place on the tour costs.", None),
]
RANGE = {p[0]: p[3] for p in PROPS}
INVERSE = {p[0]: p[6] for p in PROPS if p[6]}
PARENT = {c[0]: c[1] for c in CLASSES}
LABEL = {c[0]: c[2] for c in CLASSES}
PLURAL = {c[0]: c[3] for c in CLASSES}

VALLEYS = ["Val Ferrina", "Orsental", "Val Cresta", "Lauzertal", "Val Morvena", "Sennachtal"]
# (village, index of its valley)
VILLAGES = [("Valtrona", 0), ("Pralunga", 0), ("Ossenau", 1), ("Grünwies", 1), ("Fontanetz", 2), ("Cadrenna", 2),
            ("Lauzen", 3), ("Bergnach", 3), ("Santa Ilda", 4), ("Zernau", 5)]
# (section, its village, the short name its web and mail addresses use)
SECTIONS = [("Orvel Section", "Valtrona", "orvel"), ("Gamsberg Section", "Ossenau", "gamsberg"),
            ("Cresta Section", "Fontanetz", "cresta"), ("Lauzen Section", "Lauzen", "lauzen"),
            ("Sennach Section", "Zernau", "sennach")]
STAFFED = ["Brenni Hut", "Rifugio Lodrin", "Ossenauer Hütte", "Capanna Moravel", "Gaudenz Hut", "Rifugio Sasselta",
           "Alpetta Lodge", "Furlan Hut", "Rifugio Cresta Alta", "Lavinal Hut", "Gamsbodenhütte", "Steinkar Hut",
           "Rifugio Zanetti", "Plazzet Hut", "Capanna Scalver", "Corvin Hut"]
BIVOUACS = ["Bivacco Ferrin", "Pizzot Bivouac", "Bivacco Valdaz", "Monteglin Bivouac", "Bivacco Rosalp",
            "Eggen Shelter", "Bivacco Fenner", "Tannerloch Box"]
REFUGES = ["Malga Orvalle", "Ferrina Refuge", "Casera Bellun", "Alpe Runsch", "Wolfsgrube Hut", "Selva Hut",
           "Rossboden Hut", "Casera Tovo"]
SUMMITS = ["Piz Arsel", "Monte Cavrin", "Cima Rosalp", "Hoher Gamsberg", "Punta Valdaz", "Sasso Moravel", "Piz Tovo",
           "Cima Ferrina", "Hochsenn", "Lauzerspitze", "Monte Pizzot", "Piz Gerola", "Cima Alta", "Torre Fenner",
           "Grauhorn", "Punta Bellun", "Corno Runsch", "Piz Scalver", "Orvelkopf", "Monte Lodrin"]
HIKES = ["Larch Path", "Chamois Trail", "Smugglers' Path", "Panorama Way", "Lakes Trail", "Orsental High Route",
         "Old Mule Track", "Marmot Path", "Mill Path", "Gentian Trail", "Shepherds' Way", "Path 412", "Path 27",
         "Path 105", "Cresta Ridge Walk", "Eagle Path", "Stone Pine Trail", "Waterfall Path", "Miners' Track",
         "Glacier View Path"]
FERRATAS = ["Via Ferrata Giulia", "Klettersteig Gamsband", "Ferrata delle Scale", "Engelsband", "Orvel Iron Way",
            "Cavrin Cable Route", "Sentiero Attrezzato Rosalp", "Via Ferrata dei Finanzieri"]
# prose puts "the" before a name that ends in one of these words
ARTICLE = {"Hut", "Hütte", "Lodge", "Bivouac", "Shelter", "Box", "Refuge", "Path", "Trail", "Way", "Route",
           "Track", "Walk", "Section"}
FEMALE = "Marta Anna Lisa Giulia Elena Verena Chiara Sabine Irene Katrin Sofia Monika Paola Theresa Greta Nadia".split()
MALE = "Luca Matthias Stefan Paolo Jakob Marco Florian Toni Martin Reto Gian Simon Lorenz Hannes Davide Fabio".split()
SURNAMES = ("Keller Brunner Pedrotti Gasser Zanon Kofler Rinaldi Mair Degasperi Platzer Bertoldi Walch Fontana "
            "Holzer Canal Steger Moser Pichler Dorigo Huber Sartori Innerhofer Zambelli Lechner Rigo Planker "
            "Tavernar Grass Vinatzer Obwexer Daprà Costner Felder Ghedina Lanz Ploner").split()
TASKS = ["path maintenance", "waymarking", "kitchen duty", "chopping firewood", "first aid", "the bookings",
         "the children's programme", "repairs to the water supply"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
OPENING = ["May", "June", "June", "June", "July"]
HIKE_GRADES = ["T1", "T2", "T2", "T3", "T3", "T4", "T5"]
FERRATA_GRADES = ["K2", "K3", "K3", "K4", "K5"]


@dataclass
class Thing:
    key: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)
    sex: str = ""      # "f" or "m" for people


@dataclass
class World:
    valleys: list[Thing]
    villages: list[Thing]
    sections: list[Thing]
    shelters: list[Thing] = field(default_factory=list)
    summits: list[Thing] = field(default_factory=list)
    trails: list[Thing] = field(default_factory=list)
    wardens: list[Thing] = field(default_factory=list)
    guides: list[Thing] = field(default_factory=list)
    volunteers: list[Thing] = field(default_factory=list)
    tours: list[Thing] = field(default_factory=list)

    def groups(self) -> list[list[Thing]]:
        return [self.valleys, self.villages, self.sections, self.shelters, self.summits, self.trails, self.wardens,
                self.guides, self.volunteers, self.tours]

    def linked(self, prop: str, target: Thing, among: list[Thing]) -> list[Thing]:
        """The things of `among` whose `prop` is `target` or a list holding it."""
        out = []
        for t in among:
            v = t.facts.get(prop)
            if v is target or (isinstance(v, list) and any(x is target for x in v)):
                out.append(t)
        return out


def _slug(text: str, sep: str = "_") -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", sep, plain).strip(sep)


def _is_a(cls: str | None, sup: str) -> bool:
    while cls is not None:
        if cls == sup:
            return True
        cls = PARENT[cls]
    return False


def _prose(t: Thing) -> str:
    """How running text names a thing: "the Brenni Hut", "Rifugio Lodrin", "the Orvel Section", a tour
    in quotes."""
    if t.cls == "GuidedTour":
        return f"“{t.label}”"
    if t.cls in ("Summit", "Village", "Valley") or _is_a(t.cls, "Person"):
        return t.label
    last = t.label.split()[-1]
    return f"the {t.label}" if last in ARTICLE or last.endswith("hütte") else t.label


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _day(iso: str, weekday: bool = False) -> str:
    d = dt.date.fromisoformat(iso)
    text = f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    return f"{WEEKDAYS[d.weekday()]} {text}" if weekday else text


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _an(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def _spread(rng: random.Random, bins: list[Thing], n: int, each: int) -> list[Thing]:
    """`n` draws from `bins`, every bin at least `each` times, in a random order."""
    out = [b for b in bins for _ in range(each)] + [rng.choice(bins) for _ in range(n - each * len(bins))]
    rng.shuffle(out)
    return out


# ---------------------------------------------------------------- the world


def _build_world(rng: random.Random) -> World:
    valleys = [Thing(f"valley_{_slug(v)}", v, "Valley") for v in VALLEYS]
    villages = []
    for name, vi in VILLAGES:
        high = rng.randint(18, 34) * 50 + rng.randint(0, 49)
        villages.append(Thing(f"village_{_slug(name)}", name, "Village",
                              {"village_valley": valleys[vi], "elevation_m": high}))
    by_name = {v.label: v for v in villages}
    sections = []
    for name, home, short in SECTIONS:
        sections.append(Thing(f"section_{short}", name, "ClubSection",
                              {"basedIn": by_name[home], "founded": str(rng.randint(1872, 1952)),
                               "homepage": f"www.cac-{short}.example", "e_mail": f"office@cac-{short}.example"}))
    w = World(valleys, villages, sections)
    _build_shelters(rng, w)
    _build_summits(rng, w)
    _build_trails(rng, w)
    people = list(zip(rng.sample(FEMALE + MALE, 32), rng.sample(SURNAMES, 32)))
    _build_wardens(rng, w, people)
    _build_helpers(rng, w, people)
    _build_tours(rng, w)
    return w


SHELTER_RANGES = {  # elevation, beds, year built
    "StaffedHut": ((1850, 3050), (24, 110), (1879, 1986)),
    "Bivouac": ((2550, 3480), (4, 12), (1948, 2016)),
    "Refuge": ((1480, 2450), (6, 30), (1890, 1994)),
}


def _build_shelters(rng: random.Random, w: World) -> None:
    names = [(n, "StaffedHut") for n in STAFFED] + [(n, "Bivouac") for n in BIVOUACS] + [(n, "Refuge") for n in REFUGES]
    rng.shuffle(names)
    phones = iter(rng.sample(range(100, 999), len(names)))
    for (name, cls), valley in zip(names, _spread(rng, w.valleys, len(names), 3)):
        high, beds, built = SHELTER_RANGES[cls]
        home = [s for s in w.sections if s.facts["basedIn"].facts["village_valley"] is valley]
        s = Thing(f"shelter_{_slug(name)}", name, cls, {
            "locatedIn": valley,
            "owned_by": rng.choice(home) if home and rng.random() < 0.6 else rng.choice(w.sections),
            "elevation_m": rng.randint(*high), "beds": rng.randint(*beds), "builtIn": str(rng.randint(*built))})
        if cls == "StaffedHut":
            s.facts["opening_month"] = rng.choice(OPENING)
            s.facts["priceNight"] = f"{rng.randint(56, 120) / 2:.2f}"
            s.facts["phone"] = f"0465 {rng.randint(700, 799)} {next(phones)}"
            if rng.random() < 0.7:
                s.facts["homepage"] = f"www.{_slug(name, '-')}.example"
        w.shelters.append(s)
    w.shelters.sort(key=lambda s: s.label)
    for sec in w.sections:
        sec.facts["owns"] = w.linked("owned_by", sec, w.shelters)


def _build_summits(rng: random.Random, w: World) -> None:
    for name, valley in zip(SUMMITS, _spread(rng, w.valleys, len(SUMMITS), 2)):
        w.summits.append(Thing(f"summit_{_slug(name)}", name, "Summit",
                               {"summitIn": valley, "elevation_m": rng.randint(2380, 3690)}))


def _build_trails(rng: random.Random, w: World) -> None:
    names = [(n, "HikingTrail") for n in HIKES] + [(n, "ViaFerrata") for n in FERRATAS]
    for (name, cls), valley in zip(names, _spread(rng, w.valleys, len(names), 3)):
        huts = [s for s in w.shelters if s.facts["locatedIn"] is valley]
        towns = w.linked("village_valley", valley, w.villages)
        peaks = w.linked("summitIn", valley, w.summits)
        start = rng.choice(towns) if cls == "HikingTrail" and rng.random() < 0.6 else rng.choice(huts)
        end = rng.choice([h for h in huts if h is not start])
        if start.cls != "Village" and rng.random() < 0.25:
            start, end = end, rng.choice(towns)      # a way down to the valley
        t = Thing(f"trail_{_slug(name)}", name, cls, {"trail_start": start, "trail_end": end})
        if rng.random() < (0.85 if cls == "ViaFerrata" else 0.5):
            t.facts["reaches"] = rng.choice(peaks)
        if cls == "HikingTrail":
            km = rng.randint(30, 220) / 10
            hours = round((km / 4 + rng.uniform(0.5, 2.5)) * 2) / 2
            grade = rng.choice(HIKE_GRADES)
        else:
            km, hours = rng.randint(12, 60) / 10, rng.choice([2, 2.5, 3, 3.5, 4, 4.5, 5, 6])
            grade = rng.choice(FERRATA_GRADES)
        t.facts.update({"length_km": _num(km), "walkingTime": _num(hours), "grade": grade})
        w.trails.append(t)


def _person(people: list, cls: str) -> Thing:
    first, last = people.pop()
    return Thing(f"person_{_slug(first + ' ' + last)}", f"{first} {last}", cls, sex="f" if first in FEMALE else "m")


def _build_wardens(rng: random.Random, w: World, people: list) -> None:
    """A warden for every staffed hut; two of them keep a second hut as well."""
    huts = [s for s in w.shelters if s.cls == "StaffedHut"]
    rng.shuffle(huts)
    shares = [huts[0:2], huts[2:4]] + [[h] for h in huts[4:]]
    for share in shares:
        p = _person(people, "HutWarden")
        p.facts["wardenOf"] = sorted(share, key=lambda h: h.label)
        p.facts["wardenSince"] = str(rng.randint(1989, 2022))
        for h in share:
            h.facts["keptBy"] = p
        w.wardens.append(p)


def _build_helpers(rng: random.Random, w: World, people: list) -> None:
    """Ten guides licensed by a section and based in a village, eight volunteers at one or two shelters."""
    phones = iter(rng.sample(range(1000, 9999), 12))
    for _ in range(10):
        g = _person(people, "MountainGuide")
        first, last = g.label.split()
        g.facts = {"certifiedBy": rng.choice(w.sections), "worksFrom": rng.choice(w.villages),
                   "phone": f"+39 347 {rng.randint(200, 899)} {next(phones)}"}
        if rng.random() < 0.85:
            g.facts["e_mail"] = f"{_slug(first)}.{_slug(last)}@guides-carmenza.example"
        w.guides.append(g)
    for task in rng.sample(TASKS, 8):
        v = _person(people, "Volunteer")
        v.facts = {"helpsAt": sorted(rng.sample(w.shelters, rng.choice([1, 1, 2])), key=lambda s: s.label),
                   "task": task}
        w.volunteers.append(v)


def _tour_names(t: Thing) -> list[str]:
    trail = _prose(t)
    if "reaches" in t.facts:
        top = t.facts["reaches"].label
        names = [f"Sunrise on {top}", f"{top} in a Day", f"Up {top} with a Guide"]
    else:
        names = []
    if t.cls == "ViaFerrata":
        return names + [f"{t.label} for Beginners", f"Via Ferrata Taster on {trail}"]
    easy = [f"Family Day on {trail}", f"{t.label} at an Easy Pace"] if t.facts["grade"] <= "T3" else []
    return names + [f"Wild Flowers on {trail}"] + easy


def _build_tours(rng: random.Random, w: World) -> None:
    days = sorted(rng.sample(range(163, 271), 22))
    names: list[tuple[str, Thing]] = []
    while len(names) < 22:
        t = rng.choice(w.trails)
        name = rng.choice(_tour_names(t))
        if all(name != n for n, _ in names):
            names.append((name, t))
    for (name, t), day in zip(names, days):
        start, end = t.facts["trail_start"], t.facts["trail_end"]
        tour = Thing(f"tour_{_slug(name)}", name, "GuidedTour", {
            "ledBy": rng.choice(w.guides), "follows": t, "tour_start": start if start.cls != "Village" else end,
            "tourDate": (dt.date(2025, 1, 1) + dt.timedelta(days=day)).isoformat()})
        if rng.random() < 0.75:
            tour.facts["fee"] = str(rng.choice(range(45, 190, 5)))
        w.tours.append(tour)


# ---------------------------------------------------------------- Turtle


def _class_term(dom: str | tuple) -> str:
    if isinstance(dom, str):
        return f"ac:{dom}"
    return "[ a owl:Class ; owl:unionOf ( " + " ".join(f"ac:{d}" for d in dom) + " ) ]"


def _schema_ttl() -> str:
    about = literal("Shelters, routes, summits, people and tours of an alpine club.")
    name = literal("Carmenza Alpine Club huts and routes")
    out = [PREFIXES, f"<{NS[:-1]}> a owl:Ontology ;\n    rdfs:label {name} ;\n    rdfs:comment {about} .\n"]
    for local, parent, label, _, comment in CLASSES:
        sup = f" ;\n    rdfs:subClassOf ac:{parent}" if parent else ""
        out.append(f"ac:{local} a owl:Class{sup} ;\n    rdfs:label {literal(label)} ;\n"
                   f"    rdfs:comment {literal(comment)} .\n")
    for local, kind, dom, rng_, label, comment, inverse in PROPS:
        head = "owl:ObjectProperty" if kind == "O" else "owl:DatatypeProperty"
        inv = f"    owl:inverseOf ac:{inverse} ;\n" if inverse else ""
        target = f"ac:{rng_}" if kind == "O" else rng_
        out.append(f"ac:{local} a {head} ;\n{inv}    rdfs:domain {_class_term(dom)} ;\n    rdfs:range {target} ;\n"
                   f"    rdfs:label {literal(label)} ;\n    rdfs:comment {literal(comment)} .\n")
    return "\n".join(out)


def _gold_ttl(w: World) -> str:
    out = [PREFIXES]
    for group in w.groups():
        out += [entity_ttl("ac", t.key, t.cls, t.label, t.facts, RANGE) for t in group]
    return "\n".join(out)


# ---------------------------------------------------------------- what a page can say


@dataclass
class Claim:
    """One thing a page may say, in each voice a layout needs. Templates take {s} (the subject: its name
    the first time, then its name, a description or a pronoun; only where a subject goes), {n} its name,
    {d} a description ("the hut") and {v} the value, plus `extra`. `says` are the gold triples (subject
    key, property, object key or lexical form) that saying it states."""

    topic: str                                   # kind, where, route, stay, figures, people, past, contact, links
    value: str
    says: tuple[tuple[str, str, str], ...]
    third: tuple[str, ...]
    sheet: tuple[tuple[tuple[str, ...], str], ...] = ()   # fact-sheet lines: (field names, what it shows)
    you: tuple[str, ...] = ()                    # a hut speaking to its guests
    me: tuple[str, ...] = ()                     # a person about themselves
    trip: tuple[str, ...] = ()                   # a walker's report
    quote: tuple[str, ...] = ()                  # a news item's quote
    ask: tuple[tuple[str, str], ...] = ()        # a question and its answer
    core: bool = False                           # never left off a page
    rows: tuple | None = None                    # (caption, header, rows, says) for a listing
    extra: dict[str, str] = field(default_factory=dict)

    def lines(self, voice: str) -> tuple[str, ...]:
        return getattr(self, voice) or self.third


def _says(*triples: tuple[str, str, str]) -> tuple[tuple[str, str, str], ...]:
    return tuple(triples)


def _names(items: list[Thing]) -> str:
    return _join([_prose(t) for t in items])


def _plain(items: list[Thing]) -> str:
    return ", ".join(t.label for t in items)


KIND_LINES = {   # (third person, a hut to its guests, a walker)
    "StaffedHut": (("{n} is a staffed hut with a warden on duty all season.",
                    "{n} is a staffed hut belonging to the " + CLUB + ".",
                    "Among the club's shelters, {n} is a staffed hut, with meals cooked on site."),
                   ("{n} is a staffed hut, so a hot dinner and a proper breakfast are waiting for you.",
                    "As a staffed hut, {n} cooks for its guests every evening of the season."),
                   ("{n} is a staffed hut, and the dinner alone was worth the climb.",)),
    "Bivouac": (("{n} is a bivouac: a small unmanned box with bunks, blankets and nothing else.",
                 "{n} is a bivouac, left open all year for emergencies and early starts.",
                 "Strictly speaking {n} is a bivouac rather than a hut: there is no warden and no running water."),
                ("{n} is a bivouac, so bring everything you need, water included.",),
                ("{n} is a bivouac, a red tin box bolted to the rock.",
                 "{n} turned out to be a proper bivouac: six square metres, a door and a logbook.")),
    "Refuge": (("{n} is a self-catering refuge: no warden, but a stove, pans and firewood.",
                "{n} is run as a self-catering refuge and stays unlocked all year.",
                "{n} is a self-catering refuge, so walkers cook for themselves."),
               ("{n} is a self-catering refuge: you bring the food, the club leaves the stove, the pans and the wood.",
                "Please remember that {n} is a self-catering refuge and there is nobody here to cook for you."),
               ("{n} is a self-catering refuge, so we carried up pasta and a bottle of red.",)),
}


def _shelter_kind(s: Thing) -> Claim:
    third, you, trip = KIND_LINES[s.cls]
    return Claim("kind", LABEL[s.cls], _says((s.key, "type", s.cls)), third,
                 sheet=((("Type", "Category", "Kind of shelter"), LABEL[s.cls]),), you=you, trip=trip,
                 ask=(("What kind of place is {n}?", "{s} is " + _an(LABEL[s.cls]) + "."),), core=True)


def _shelter_basics(s: Thing) -> list[Claim]:
    k, x = s.key, s.facts
    valley, owner = x["locatedIn"], x["owned_by"]
    return [
        _shelter_kind(s),
        Claim("where", valley.label, _says((k, "locatedIn", valley.key)),
              ("{s} stands at the head of {v}.", "{s} is in {v}.", "{s} looks out over {v}."),
              sheet=((("Valley", "Area", "Location"), valley.label),),
              you=("You'll find us high up in {v}.", "{n} sits above the pastures of {v}."),
              trip=("{s} is tucked away at the top end of {v}.",),
              ask=(("Which valley is {n} in?", "{s} is in {v}."), ("Where exactly is {n}?", "High up in {v}.")),
              core=True),
        Claim("people", _prose(owner), _says((k, "owned_by", owner.key)),
              ("{s} belongs to {v}.", "{s} is owned by {v} of the club.", "{v} owns {d} and pays for its upkeep."),
              sheet=((("Owner", "Owned by", "Section"), owner.label),),
              you=("{n} belongs to {v}, whose members do most of the repairs.", "We are part of {v}."),
              trip=("{v} owns {d}, and it shows: everything was spotless.",),
              ask=(("Who owns {n}?", "{s} belongs to {v}."),)),
        Claim("figures", str(x["elevation_m"]), _says((k, "elevation_m", str(x["elevation_m"]))),
              ("{s} stands at {v} m.", "{s} is {v} metres above sea level.", "{s} sits at an altitude of {v} m."),
              sheet=((("Altitude", "Height", "Elevation"), f"{x['elevation_m']} m"),),
              you=("At {v} metres the air is thinner than you are used to, so take the first evening easy.",
                   "We are {v} m above sea level."),
              trip=("At {v} m the air was noticeably thinner.",),
              ask=(("How high up is {n}?", "{s} stands at {v} m."),)),
        Claim("stay", str(x["beds"]), _says((k, "beds", str(x["beds"]))),
              ("{s} has {v} beds.", "There are {v} sleeping places at {d}.", "{s} sleeps {v}.")
              if s.cls != "Bivouac" else ("{s} has {v} bunks.", "There is room for {v} on the bunks of {d}."),
              sheet=((("Beds", "Sleeping places", "Places"), str(x["beds"])),),
              you=("You'll find {v} beds, in dormitories and a few smaller rooms.",
                   "We have {v} beds, so booking ahead is wise in August.") if s.cls == "StaffedHut" else
              ("There are {v} beds, and they go first come, first served.",),
              trip=("There are {v} places to sleep, so it pays to arrive early.",),
              ask=(("How many beds are there at {n}?", "{v}."),
                   ("How many people can sleep at {n}?", "{s} has {v} beds."))),
        Claim("past", x["builtIn"], _says((k, "builtIn", x["builtIn"])),
              ("{s} was built in {v}.", "{s} dates from {v}.", "The present building went up in {v}."),
              sheet=((("Built", "Year built", "Constructed"), x["builtIn"]),),
              you=("Our building has stood here since {v}.",
                   "{n} was built in {v} and has been patched up ever since."),
              trip=("{s} was built in {v}, and parts of it look their age.",),
              ask=(("How old is {n}?", "{s} was built in {v}."),)),
    ]


def _hut_service(s: Thing) -> list[Claim]:
    k, x = s.key, s.facts
    keeper = x["keptBy"]
    out = [
        Claim("people", keeper.label, _says((k, "keptBy", keeper.key)),
              ("{v} keeps {d}.", "The warden is {v}.", "{s} is run by warden {v}."),
              sheet=((("Warden", "Hut keeper", "Your host"), keeper.label),),
              you=("Your host up here is {v}.", "{v} runs the hut and will happily tell you which way to go tomorrow."),
              trip=("{v}, the warden, gave us the weather forecast at breakfast.",),
              quote=("“The first guests of the summer are always special,” says {v}, who keeps the hut.",
                     "“We have fixed the roof and restocked the cellar,” says warden {v}."),
              ask=(("Who runs {n}?", "The warden is {v}."), ("Who is the warden at {n}?", "{v}.")), core=True),
        Claim("stay", x["opening_month"], _says((k, "opening_month", x["opening_month"])),
              ("{s} opens for the season in {v}.", "The season at {d} starts in {v}."),
              sheet=((("Opens", "Season from", "Open from"), x["opening_month"]),),
              you=("We open in {v} and stay open until the first heavy snow.", "Our season begins in {v}."),
              ask=(("When does {n} open?", "The season starts in {v}."),)),
        Claim("stay", x["priceNight"], _says((k, "priceNight", x["priceNight"])),
              ("A night at {d} costs €{v}.", "A bed costs €{v} per night."),
              sheet=((("Overnight", "Price per night", "Bed for the night"), f"€{x['priceNight']}"),),
              you=("A bed costs €{v} a night; club members get a discount.",
                   "Expect to pay €{v} for the night, meals not included."),
              trip=("We paid €{v} each for the night.",),
              ask=(("How much is a night at {n}?", "€{v} per person."),)),
        Claim("contact", x["phone"], _says((k, "phone", x["phone"])),
              ("Bookings are taken on {v}.", "{s} can be reached on {v}."),
              sheet=((("Phone", "Tel.", "Bookings"), x["phone"]),),
              you=("To book a bed, ring us on {v}.", "Call {v} to reserve, ideally a few days ahead."),
              ask=(("How do I book a bed at {n}?", "Ring the hut on {v}."),)),
    ]
    if "homepage" in x:
        out.append(Claim("contact", x["homepage"], _says((k, "homepage", x["homepage"])),
                         ("More information is at {v}.", "{s} has its own website at {v}."),
                         sheet=((("Website", "Web", "Online"), x["homepage"]),),
                         you=("You can also book online at {v}.",
                              "Menus, photos and the latest conditions are on {v}."),
                         ask=(("Does {n} have a website?", "Yes: {v}."),)))
    return out


def _list_claim(topic: str, items: list[Thing], prop: str, target: Thing, one: tuple, many: tuple, fields: tuple,
                ask: tuple = (), **voices: tuple) -> list[Claim]:
    """A claim naming the things of `items` that `prop` links to `target` (none when there are none)."""
    if not items:
        return []
    lines = one if len(items) == 1 else many
    picked = {voice: pair[len(items) > 1] for voice, pair in voices.items()}   # (when one, when several)
    return [Claim(topic, _names(items), tuple((i.key, prop, target.key) for i in items), lines,
                  sheet=((fields, _plain(items)),), ask=ask, **picked)]


def _shelter_links(s: Thing, w: World) -> list[Claim]:
    starts, ends = w.linked("trail_start", s, w.trails), w.linked("trail_end", s, w.trails)
    return (
        _list_claim("links", starts, "trail_start", s, ("{v} starts from {d}.", "{v} sets off right at the door."),
                    ("{v} start from {d}.", "Routes that set off from {d}: {v}."),
                    ("Routes from here", "Starting here"),
                    ask=(("Which routes start at {n}?", "{v}."),),
                    you=(("From our door you can set off on {v}.",), ("From our door you can set off on {v}.",)))
        + _list_claim("links", ends, "trail_end", s, ("{v} ends at {d}.",), ("{v} end at {d}.",),
                      ("Routes ending here", "Arriving by"), ask=(("Which routes end at {n}?", "{v}."),),
                      you=(("{v} brings you to our door.",), ("{v} bring you to our door.",)))
        + _list_claim("links", w.linked("tour_start", s, w.tours), "tour_start", s,
                      ("The guided tour {v} meets here.",), ("Guided tours that meet here: {v}.",),
                      ("Guided tours", "Tours starting here"),
                      ask=(("Do any guided tours start at {n}?", "Yes: {v}."),))
        + _list_claim("people", w.linked("helpsAt", s, w.volunteers), "helpsAt", s,
                      ("{v}, a volunteer, lends a hand at {d}.",), ("Volunteers {v} lend a hand at {d}.",),
                      ("Volunteers", "Helpers"), ask=(("Who volunteers at {n}?", "{v}."),)))


def _shelter_claims(s: Thing, w: World) -> list[Claim]:
    service = _hut_service(s) if s.cls == "StaffedHut" else []
    return _shelter_basics(s) + service + _shelter_links(s, w)


def _trail_kind(t: Thing) -> Claim:
    if t.cls == "ViaFerrata":
        third = ("{n} is a via ferrata.", "{n} is a via ferrata with steel cables, rungs and a couple of ladders.",
                 "{n} is one of the via ferratas of the " + RANGE_NAME + ".")
        trip = ("{n} is a via ferrata, so we brought harnesses, helmets and lanyards.",)
    else:
        third = ("{n} is a waymarked hiking trail.", "{n} is a hiking trail looked after by the club.",
                 "{n} is a classic hiking trail of the " + RANGE_NAME + ".")
        trip = ("{n} is a hiking trail with red-and-white waymarks all the way.",)
    return Claim("kind", LABEL[t.cls], _says((t.key, "type", t.cls)), third,
                 sheet=((("Type", "Route type", "Kind of route"), LABEL[t.cls]),), trip=trip,
                 ask=(("Is {n} a walk or a climb?", "{s} is " + _an(LABEL[t.cls]) + "."),), core=True)


def _trail_ends(t: Thing, rng: random.Random) -> list[Claim]:
    """Where a route starts and ends: in one sentence or in two."""
    k, a, b = t.key, t.facts["trail_start"], t.facts["trail_end"]
    start = _says((k, "trail_start", a.key))
    end = _says((k, "trail_end", b.key))
    if rng.random() < 0.4:
        return [Claim("route", _prose(a), start + end, ("{s} runs from {v} to {b}.", "{s} leads from {v} to {b}."),
                      sheet=((("From", "Start"), a.label), (("To", "Finish"), b.label)),
                      trip=("We walked from {v} to {b}.", "The route took us from {v} to {b}."),
                      ask=(("Where does {n} go from and to?", "From {v} to {b}."),), core=True,
                      extra={"b": _prose(b)})]
    return [
        Claim("route", _prose(a), start, ("{s} starts in {v}." if a.cls == "Village" else "{s} starts at {v}.",
                                          "{s} sets off from {v}.", "The start of {d} is at {v}."),
              sheet=((("Start", "From", "Starting point"), a.label),),
              trip=("We left {v} just after seven.", "We started from {v} at first light."),
              ask=(("Where does {n} start?", "{s} starts at {v}."),), core=True),
        Claim("route", _prose(b), end, ("{s} ends at {v}.", "{s} comes out at {v}.", "The end point is {v}."),
              sheet=((("End", "To", "Finish"), b.label),),
              trip=("In the afternoon we reached {v}, which is where the route ends.",),
              ask=(("Where does {n} finish?", "At {v}."),)),
    ]


def _trail_claims(t: Thing, w: World, rng: random.Random) -> list[Claim]:
    k, x = t.key, t.facts
    scale = "on the via ferrata scale" if t.cls == "ViaFerrata" else "on the club's path scale"
    out = [_trail_kind(t)] + _trail_ends(t, rng) + [
        Claim("figures", x["length_km"], _says((k, "length_km", x["length_km"])),
              ("{s} is {v} km long.", "The whole route is {v} km."),
              sheet=((("Length", "Distance"), f"{x['length_km']} km"),),
              trip=("It's {v} km in all.", "All told it's {v} km."), ask=(("How long is {n}?", "{v} km."),)),
        Claim("figures", x["walkingTime"], _says((k, "walkingTime", x["walkingTime"])),
              ("Allow {v} hours.", "Walking time is about {v} hours.", "Most parties need {v} hours for {d}."),
              sheet=((("Walking time", "Time", "Duration"), f"{x['walkingTime']} h"),),
              trip=("The signpost at the start says {v} hours, which was about right for us.",),
              ask=(("How long does {n} take?", "Allow {v} hours."),)),
        Claim("figures", x["grade"], _says((k, "grade", x["grade"])),
              ("{s} is graded {v} " + scale + ".", "The club grades {d} {v}.", "{s} carries a {v} rating."),
              sheet=((("Grade", "Difficulty", "Rating"), x["grade"]),),
              trip=("It's graded {v}, which felt about right.", "Officially it's a {v}, and we found that fair."),
              ask=(("How hard is {n}?", "It is graded {v}."),)),
    ]
    if "reaches" in x:
        top = x["reaches"]
        out.append(Claim("route", top.label, _says((k, "reaches", top.key)),
                         ("{s} leads to the top of {v}.", "{s} is the usual way up {v}.",
                          "{s} reaches the summit of {v}."),
                         sheet=((("Summit", "Top", "Reaches"), top.label),),
                         trip=("The last stretch to the top of {v} is steep but short.",
                               "On the way we topped out on {v} and sat by the summit cross for a while."),
                         ask=(("Which summit does {n} reach?", "{s} leads to the top of {v}."),)))
    out += _list_claim("links", w.linked("follows", t, w.tours), "follows", t,
                       ("The club's guided tour {v} takes this route.",), ("Guided tours on this route: {v}.",),
                       ("Guided tours", "With a guide"), ask=(("Can I do {n} with a guide?", "Yes, on {v}."),))
    return out


def _summit_claims(m: Thing, w: World) -> list[Claim]:
    k, valley, high = m.key, m.facts["summitIn"], str(m.facts["elevation_m"])
    return [
        Claim("kind", "summit", _says((k, "type", "Summit")),
              ("{n} is one of the summits of the " + RANGE_NAME + ".",
               "{n} is a summit on the main ridge of the range.",
               "{n} is a summit popular with walkers and climbers alike."),
              sheet=((("Type",), "summit"),), trip=("{n} is a summit we had been eyeing for years.",),
              core=True),
        Claim("where", valley.label, _says((k, "summitIn", valley.key)),
              ("{s} rises above {v}.", "{s} towers over {v}.", "{s} stands above the head of {v}."),
              sheet=((("Valley", "Above", "Area"), valley.label),), trip=("{n} rises straight out of {v}.",),
              ask=(("Which valley is {n} in?", "{s} rises above {v}."),), core=True),
        Claim("figures", high, _says((k, "elevation_m", high)),
              ("{s} is {v} m high.", "{s} reaches {v} metres.", "The top of {d} is at {v} m."),
              sheet=((("Height", "Elevation", "Altitude"), f"{high} m"),),
              trip=("At {v} m the top was windy and cold.", "The summit, at {v} m, was busy with choughs."),
              ask=(("How high is {n}?", "{v} m."),), core=True),
    ] + _list_claim("route", w.linked("reaches", m, w.trails), "reaches", m,
                    ("{v} leads to the top.", "The usual way up is {v}."),
                    ("{v} lead to the top.", "The ways up are {v}."), ("Routes to the top", "Ways up"),
                    ask=(("How do I get up {n}?", "By {v}."),),
                    trip=(("We went up by {v}.",), ("There are several ways up: {v}.",)))


def _village_claims(v: Thing, w: World) -> list[Claim]:
    k, valley, high = v.key, v.facts["village_valley"], str(v.facts["elevation_m"])
    return [
        Claim("kind", "village", _says((k, "type", "Village")),
              ("{n} is a mountain village and a good base for walks.", "{n} is a small village popular with walkers."),
              sheet=((("Type",), "village"),), core=True),
        Claim("where", valley.label, _says((k, "village_valley", valley.key)),
              ("{s} lies in {v}.", "{s} is a village in {v}."), sheet=((("Valley", "Area"), valley.label),),
              ask=(("Which valley is {n} in?", "{s} lies in {v}."),), core=True),
        Claim("figures", high, _says((k, "elevation_m", high)), ("{s} sits at {v} m.", "{s} is {v} metres up."),
              sheet=((("Altitude", "Height"), f"{high} m"),), ask=(("How high is {n}?", "{v} m above sea level."),)),
    ] + (_list_claim("links", w.linked("trail_start", v, w.trails), "trail_start", v, ("{v} starts in {d}.",),
                     ("{v} start in {d}.",), ("Routes from the village", "Starting here"),
                     ask=(("Which routes start in {n}?", "{v}."),))
         + _list_claim("links", w.linked("trail_end", v, w.trails), "trail_end", v, ("{v} comes down to {d}.",),
                       ("{v} come down to {d}.",), ("Routes ending here",), ask=(("Which routes end in {n}?", "{v}."),))
         + _list_claim("people", w.linked("worksFrom", v, w.guides), "worksFrom", v,
                       ("Mountain guide {v} works from {d}.",), ("Mountain guides {v} work from {d}.",),
                       ("Guides based here", "Mountain guides"),
                       ask=(("Are there mountain guides in {n}?", "Yes: {v}."),))
         + _list_claim("people", w.linked("basedIn", v, w.sections), "basedIn", v, ("{v} has its office in {d}.",),
                       ("{v} have their offices in {d}.",), ("Club office", "Section"),
                       ask=(("Does the club have an office in {n}?", "Yes, {v} is based here."),)))


def _shelter_rows(shelters: list[Thing], last: str) -> tuple[tuple, list[tuple], tuple]:
    """A listing of shelters: its header, its rows and the triples the rows say (the last column a valley
    or an altitude)."""
    header = ("Shelter", "Type", "Beds", "Valley" if last == "valley" else "Altitude")
    rows, says = [], []
    for s in shelters:
        tail = s.facts["locatedIn"].label if last == "valley" else f"{s.facts['elevation_m']} m"
        rows.append((s.label, LABEL[s.cls], str(s.facts["beds"]), tail))
        says += [(s.key, "type", s.cls), (s.key, "beds", str(s.facts["beds"])),
                 (s.key, "locatedIn", s.facts["locatedIn"].key) if last == "valley"
                 else (s.key, "elevation_m", str(s.facts["elevation_m"]))]
    return header, rows, tuple(says)


def _valley_claims(v: Thing, w: World) -> list[Claim]:
    k = v.key
    huts = w.linked("locatedIn", v, w.shelters)
    header, rows, says = _shelter_rows(huts, "altitude")
    located = tuple((s.key, "locatedIn", k) for s in huts)
    return [
        Claim("kind", "valley", _says((k, "type", "Valley")),
              ("{n} is one of the six main valleys of the " + RANGE_NAME + ".",
               "{n} is a valley of the " + RANGE_NAME + "."),
              core=True),
        Claim("stay", _names(huts), located, ("The shelters of {n} are {v}.", "In {n} you can sleep at {v}."),
              sheet=((("Shelters",), _plain(huts)),), core=True,
              rows=(f"Where to sleep in {v.label}", header, rows, located + says)),
    ] + (_list_claim("where", w.linked("village_valley", v, w.villages), "village_valley", v,
                     ("The only village in {d} is {v}.",), ("The villages in {d} are {v}.",), ("Villages",))
         + _list_claim("figures", w.linked("summitIn", v, w.summits), "summitIn", v, ("{v} rises above {d}.",),
                       ("{v} rise above {d}.",), ("Summits",)))


def _section_claims(c: Thing, w: World) -> list[Claim]:
    k, x = c.key, c.facts
    owned = x["owns"]
    header, rows, says = _shelter_rows(owned, "valley")
    owns = tuple((k, "owns", s.key) for s in owned)
    return [
        Claim("kind", "club section", _says((k, "type", "ClubSection")),
              ("{n} is one of the five sections of the " + CLUB + ".", "{n} is a local section of the " + CLUB + "."),
              sheet=((("Type",), "club section"),), core=True),
        Claim("where", x["basedIn"].label, _says((k, "basedIn", x["basedIn"].key)),
              ("{s} has its office in {v}.", "{s} is based in {v}."),
              sheet=((("Office", "Based in"), x["basedIn"].label),),
              ask=(("Where is {n} based?", "In {v}."),), core=True),
        Claim("past", x["founded"], _says((k, "founded", x["founded"])),
              ("{s} was founded in {v}.", "{s} has existed since {v}."), sheet=((("Founded", "Since"), x["founded"]),),
              ask=(("How old is {n}?", "{s} was founded in {v}."),)),
        Claim("contact", x["homepage"], _says((k, "homepage", x["homepage"])),
              ("The section's website is {v}.", "News and hut bookings are on {v}."),
              sheet=((("Website", "Web"), x["homepage"]),), ask=(("Where is {n} online?", "At {v}."),)),
        Claim("contact", x["e_mail"], _says((k, "e_mail", x["e_mail"])),
              ("Write to the section at {v}.", "The office answers e-mail sent to {v}."),
              sheet=((("E-mail", "Mail"), x["e_mail"]),), ask=(("How can I contact {n}?", "By e-mail at {v}."),)),
        Claim("stay", _names(owned), owns, ("{s} owns {v}.", "The shelters of {d} are {v}."),
              sheet=((("Shelters", "Huts"), _plain(owned)),),
              quote=("“Keeping {v} in good shape is our biggest job,” says the section's chair.",)
              if len(owned) <= 4 else (),
              ask=(("Which huts does {n} own?", "{v}."),), core=True,
              rows=("Our huts and shelters", header, rows, owns + says)),
    ] + _list_claim("people", w.linked("certifiedBy", c, w.guides), "certifiedBy", c,
                    ("Mountain guide {v} holds a licence from {d}.",), ("Guides licensed by {d}: {v}.",),
                    ("Licensed guides",), ask=(("Which guides hold a licence from {n}?", "{v}."),))


def _person_kind(p: Thing, third: tuple, me: tuple) -> Claim:
    return Claim("kind", LABEL[p.cls], _says((p.key, "type", p.cls)), third,
                 sheet=((("Role", "Job", "Works as"), LABEL[p.cls]),), me=me,
                 ask=(("What does {n} do?", "{s} is " + _an(LABEL[p.cls]) + "."),), core=True)


def _warden_claims(p: Thing, w: World) -> list[Claim]:
    k, huts, since = p.key, p.facts["wardenOf"], p.facts["wardenSince"]
    return [
        _person_kind(p, ("{n} is a hut warden with the " + CLUB + ".", "{n} works as a hut warden."),
                     ("I'm a hut warden.", "I work as a hut warden for the " + CLUB + ".")),
        Claim("people", _names(huts), tuple((k, "wardenOf", h.key) for h in huts),
              ("{s} looks after {v}.", "{s} keeps {v}.", "{s} runs {v} from spring to autumn."),
              sheet=((("Hut", "Looks after", "Keeps"), _plain(huts)),),
              me=("I look after {v}.", "These days I run {v}.", "Every summer I keep {v}."),
              quote=("“Every season up here is different,” says {n}, who keeps {v}.",),
              ask=(("Which hut does {n} run?", "{s} looks after {v}."),), core=True),
        Claim("past", since, _says((k, "wardenSince", since)),
              ("{s} has been a hut warden since {v}.", "{s} took charge of a first hut in {v}."),
              sheet=((("Warden since", "In the job since"), since),),
              me=("I've been a warden since {v}.", "I started as a warden in {v}."),
              ask=(("How long has {n} been a warden?", "Since {v}."),)),
    ]


def _guide_claims(p: Thing, w: World) -> list[Claim]:
    k, x = p.key, p.facts
    sec, home = x["certifiedBy"], x["worksFrom"]
    out = [
        _person_kind(p, ("{n} is a mountain guide.", "{n} works as a mountain guide in the " + RANGE_NAME + "."),
                     ("I'm a mountain guide.", "I have worked as a mountain guide for most of my life.")),
        Claim("people", _prose(sec), _says((k, "certifiedBy", sec.key)),
              ("{s} holds a guiding licence from {v}.", "{s} was licensed by {v}."),
              sheet=((("Licensed by", "Licence"), sec.label),),
              me=("My licence comes from {v}.", "I qualified with {v}."),
              ask=(("Who licensed {n}?", "{v}."),)),
        Claim("where", home.label, _says((k, "worksFrom", home.key)),
              ("{s} is based in {v}.", "{s} works out of {v}."), sheet=((("Based in", "Base"), home.label),),
              me=("I live and work in {v}.", "My base is {v}."), ask=(("Where is {n} based?", "In {v}."),), core=True),
        Claim("contact", x["phone"], _says((k, "phone", x["phone"])),
              ("{s} can be reached on {v}.", "To book {n}, call {v}."), sheet=((("Phone", "Mobile"), x["phone"]),),
              me=("Call me on {v}.", "My mobile is {v}."), ask=(("How do I book {n}?", "Call {v}."),)),
    ]
    if "e_mail" in x:
        out.append(Claim("contact", x["e_mail"], _says((k, "e_mail", x["e_mail"])),
                         ("{s} answers e-mail at {v}.", "Messages for {n} go to {v}."),
                         sheet=((("E-mail", "Mail"), x["e_mail"]),), me=("Or write to me at {v}.",),
                         ask=(("Can I e-mail {n}?", "Yes, at {v}."),)))
    tours = w.linked("ledBy", p, w.tours)
    if tours:
        said = _join([f"{_prose(t)} on {_day(t.facts['tourDate'])}" for t in tours])
        out.append(Claim("links", said, tuple(s for t in tours for s in ((t.key, "ledBy", k),
                                                                          (t.key, "tourDate", t.facts["tourDate"]))),
                         ("This summer {s} leads {v}.", "Tours with {n} this year: {v}."),
                         sheet=((("Tours", "This summer"), said),), me=("This summer I'm leading {v}.",),
                         ask=(("Which tours does {n} lead?", "{v}."),)))
    return out


def _volunteer_claims(p: Thing, w: World) -> list[Claim]:
    k, where, task = p.key, p.facts["helpsAt"], p.facts["task"]
    return [
        _person_kind(p, ("{n} is one of the club's volunteers.", "{n} volunteers for the " + CLUB + "."),
                     ("I'm a volunteer with the " + CLUB + ".", "I'm one of the club's volunteers.")),
        Claim("people", _names(where), tuple((k, "helpsAt", s.key) for s in where),
              ("{s} lends a hand at {v}.", "{s} gives up summer weekends to help at {v}."),
              sheet=((("Helps at", "Shelter"), _plain(where)),),
              me=("I help out at {v} whenever I can.", "Most weekends you'll find me at {v}."),
              quote=("“I get far more back than I give,” says {n}, who helps at {v}.",),
              ask=(("Where does {n} help?", "At {v}."),), core=True),
        Claim("people", task, _says((k, "task", task)), ("{n}'s main job there is {v}.", "Mostly {s} does {v}."),
              sheet=((("Task", "Helps with"), task),), me=("Mostly I do {v}.", "My job is mostly {v}."),
              ask=(("What does {n} do as a volunteer?", "Mostly {v}."),)),
    ]


def _tour_claims(t: Thing, w: World) -> list[Claim]:
    k, x = t.key, t.facts
    guide, route, meet, iso = x["ledBy"], x["follows"], x["tour_start"], x["tourDate"]
    out = [
        Claim("kind", "guided tour", _says((k, "type", "GuidedTour")),
              ("{n} is a guided tour organised by the " + CLUB + ".",
               "{n} is one of the club's guided tours this summer."),
              sheet=((("Type", "Event"), "guided tour"),), core=True),
        Claim("when", _day(iso), _says((k, "tourDate", iso)),
              ("{s} takes place on {v}.", "{s} is on {w}.", "The date for your diary: {w}."),
              sheet=((("Date", "When", "Day"), _day(iso, True)),), ask=(("When is {n}?", "On {w}."),), core=True,
              extra={"w": _day(iso, True)}),
        Claim("people", guide.label, _says((k, "ledBy", guide.key)),
              ("{s} is led by mountain guide {v}.", "Mountain guide {v} leads the group."),
              sheet=((("Guide", "Led by", "Leader"), guide.label),),
              quote=("“It's one of my favourite days of the whole summer,” says {v}, who will lead the group.",
                     "“You don't need to be an expert, just fit and curious,” says mountain guide {v}, "
                     "who leads the tour."),
              ask=(("Who leads {n}?", "Mountain guide {v}."),), core=True),
        Claim("route", _prose(route), _says((k, "follows", route.key)),
              ("{s} follows {v}.", "The route for the day is {v}.", "The group will go by {v}."),
              sheet=((("Route", "Trail"), route.label),), ask=(("Which route does {n} take?", "{s} follows {v}."),)),
        Claim("where", _prose(meet), _says((k, "tour_start", meet.key)),
              ("The group meets at {v}.", "{s} starts from {v}.", "Meeting point is {v}."),
              sheet=((("Meeting point", "Meet at", "Start"), meet.label),),
              ask=(("Where do we meet for {n}?", "At {v}."),)),
    ]
    if "fee" in x:
        out.append(Claim("stay", x["fee"], _says((k, "fee", x["fee"])),
                         ("A place costs €{v}.", "The fee is €{v} per person."),
                         sheet=((("Price", "Fee", "Cost per person"), f"€{x['fee']}"),),
                         ask=(("How much does {n} cost?", "€{v} per person."),)))
    return out


# ---------------------------------------------------------------- layouts

DESCS = {"StaffedHut": ("the hut",), "Bivouac": ("the bivouac", "the little shelter"),
         "Refuge": ("the refuge", "the hut"), "HikingTrail": ("the path", "the trail", "the route"),
         "ViaFerrata": ("the via ferrata", "the route", "the climb"),
         "Summit": ("the mountain", "the peak"), "Village": ("the village",), "Valley": ("the valley",),
         "ClubSection": ("the section",), "GuidedTour": ("the tour", "the outing"), "HutWarden": ("the warden",),
         "MountainGuide": ("the guide",)}


class Subject:
    """The page's main thing as sentences refer to it, and the sentences it fills in."""

    def __init__(self, t: Thing, rng: random.Random):
        self.name = _prose(t)
        self.pron = {"f": "she", "m": "he"}.get(t.sex, "it")
        self.descs = DESCS.get(t.cls) or (t.label.split()[0],)
        self.rng = rng
        self.used = 0

    def ref(self) -> str:
        self.used += 1
        if self.used == 1:
            return self.name
        return self.rng.choice([self.name, self.pron, self.rng.choice(self.descs)])

    def fill(self, template: str, claim: Claim | None = None) -> str:
        vals: dict[str, str] = {"v": claim.value, **claim.extra} if claim else {}
        if "{s}" in template:
            vals["s"] = self.ref()
        if "{n}" in template:
            self.used += 1
            vals["n"] = self.name
        if "{d}" in template:
            vals["d"] = self.rng.choice(self.descs)
        return _cap(template.format(**vals))

    def say(self, claim: Claim, voice: str = "third") -> str:
        return self.fill(self.rng.choice(claim.lines(voice)), claim)


ROUTE_RANK = {"trail_start": 0, "reaches": 1, "trail_end": 2}


def _order(claims: list[Claim], rng: random.Random) -> list[Claim]:
    """The kind first, then the rest in a random order, but a route's start before its summit and its end."""
    rest = [c for c in claims if c.topic != "kind"]
    rng.shuffle(rest)
    at = [i for i, c in enumerate(rest) if c.says and c.says[0][1] in ROUTE_RANK]
    for i, c in zip(at, sorted((rest[i] for i in at), key=lambda c: ROUTE_RANK[c.says[0][1]])):
        rest[i] = c
    return [c for c in claims if c.topic == "kind"] + rest


def _paras(sentences: list[str], rng: random.Random, most: int = 4) -> list[str]:
    out, i = [], 0
    while i < len(sentences):
        n = rng.randint(2, most)
        out.append(" ".join(sentences[i:i + n]))
        i += n
    return out


TRIP = {
    "trail": (("{label}: trip report", "Our day on {label}", "{label} in {month}"),
              ("We finally did {name} last {month}.",
               "A few notes from our day on {name} in {month}, for anyone planning it.",
               "Trip report for {name}, walked on a clear {month} day.")),
    "summit": (("Up {label}: trip report", "{label}, {month}", "How we climbed {label}"),
               ("Last {month} we finally went up {name}.", "A short report from {name}, climbed in {month}.")),
    "bivouac": (("A night at {label}", "{label}: trip report", "Sleeping high: {label}"),
                ("In {month} we spent a night at {name}.", "A quick write-up of our night at {name} last {month}.")),
}
TRIP_FILLER = ["The weather held until about two, then the clouds came in.",
               "We saw ibex on the scree below the ridge.",
               "Take more water than you think you need.", "My knees did not thank me on the way down.",
               "A couple of the waymarks have faded, so keep an eye on the map.",
               "We had the place almost to ourselves.", "Start early in summer: the afternoon storms build quickly.",
               "The views back down the valley are the best part."]
TRIP_SIGN = ["Posted by lena_on_foot.", "Tom and Bea.", "Written up by the Thursday walking group.",
             "Giorgio (ridge_runner)."]


def _r_trip(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    titles, openers = TRIP[ctx["kind"] if ctx["kind"] in TRIP else "trail"]
    subj.used += 1
    sentences = [rng.choice(openers).format(name=subj.name, month=ctx["month"])]
    ordered = _order(claims, rng)   # a walk tells where it went before what it cost
    ordered.sort(key=lambda c: {"kind": 0, "route": 1}.get(c.topic, 2))
    sentences += [subj.say(c, "trip") for c in ordered]
    for filler in rng.sample(TRIP_FILLER, 2):
        sentences.insert(rng.randint(2, len(sentences)), filler)
    body = _paras([_cap(s) for s in sentences], rng) + [rng.choice(TRIP_SIGN)]
    return _cap(rng.choice(titles).format(label=ctx["label"], month=ctx["month"])), "\n\n".join(body)


WELCOME_TITLES = ("Welcome to {name}", "{label}: your base in the mountains", "Staying at {name}")
WELCOME_PARTS = {"where": 0, "figures": 0, "people": 1, "past": 1, "stay": 2, "contact": 3, "links": 4}
WELCOME_OPEN = ("Welcome to {name}!", "Hello and welcome to {name}.", "Grüß Gott, benvenuti and welcome to {name}!")
WELCOME_CLOSE = {"StaffedHut": ("We look forward to having you with us.", "See you up here!",
                                "Safe travels, and see you soon."),
                 "Refuge": ("Please leave the refuge as you found it and take your rubbish down with you.",
                            "Enjoy your stay, and close the shutters when you leave.")}


def _r_welcome(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    subj.used += 1
    by_topic: dict[str, list[str]] = {}
    for c in _order(claims, rng):
        by_topic.setdefault("kind" if c.topic == "kind" else str(WELCOME_PARTS[c.topic]), []).append(subj.say(c, "you"))
    paras = [rng.choice(WELCOME_OPEN).format(name=subj.name) + " " + " ".join(by_topic.pop("kind", []))]
    paras += [" ".join(lines) for lines in by_topic.values()]
    host = ctx.get("host")
    sign = (f"{host} and the hut team" if host else "The hut team") if ctx["cls"] == "StaffedHut" else \
        f"Your {CLUB}"
    paras.append(rng.choice(WELCOME_CLOSE[ctx["cls"]]) + "\n" + sign)
    return _cap(rng.choice(WELCOME_TITLES).format(name=subj.name, label=ctx["label"])), "\n\n".join(paras)


NEWS = {   # headlines, and a lead sentence that states nothing the records hold
    "tour": (("Places open for “{label}”", "Booking open: {label}", "{label}: a few places left"),
             ("Booking has opened for one of the club's most popular days out.",
              "The club's summer programme of guided tours is filling up fast.")),
    "hut": (("{label} gets ready for the summer", "New season at {label}"),
            ("The snow is melting and the shutters are coming off.", "Another summer season is about to begin.")),
    "warden": (("Meet the warden: {label}", "{label} starts another season"),
               ("For many walkers the warden is the face of a hut.",
                "The club's wardens are getting ready for summer.")),
    "volunteer": (("A thank-you to volunteer {label}", "Volunteer of the month: {label}"),
                  ("The club's shelters would not run without its volunteers.",
                   "This month the club says thank you to one of its helpers.")),
    "section": (("{label} looks back on a busy year", "News from {label}"),
                ("Members met last week for the section's annual assembly.",
                 "It has been a busy year for the section.")),
}
NEWS_END = ("Further details are available from the section office.",
            "More club news will follow in the spring bulletin.",
            "")


def _r_news(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    heads, leads = NEWS[ctx["kind"]]
    ordered = _order(claims, rng)
    quoted = next((c for c in ordered if c.quote), None)
    rest = [subj.say(c) for c in ordered if c is not quoted]
    first = f"{ctx['place'].upper()}, {ctx['pub']} – {rng.choice(leads)} " + " ".join(rest[:2])
    paras = [first]
    if quoted:
        paras.append(subj.fill(rng.choice(quoted.quote), quoted))
    else:
        paras.append("“We are expecting a busy summer,” a club spokesperson said.")
    paras += _paras(rest[2:], rng, 3) + [rng.choice(NEWS_END)]
    return _cap(rng.choice(heads).format(label=ctx["label"])), "\n\n".join(p for p in paras if p)


FAQ_TITLES = ("{label}: frequently asked questions", "{label} – your questions answered", "FAQ: {label}")
FAQ_INTRO = ("The questions we hear most often about {name}.", "Planning a visit? Start with these answers.", "")
FAQ_FORMS = ("Q: {q}\nA: {a}", "{q}\n{a}", "» {q}\n{a}")


def _r_faq(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    form = rng.choice(FAQ_FORMS)
    ordered = _order(claims, rng)
    intro = [rng.choice(FAQ_INTRO).format(name=subj.name)] + [subj.say(c) for c in ordered if not c.ask]
    pairs = []
    for c in ordered:
        if c.ask:
            q, a = rng.choice(c.ask)
            pairs.append(form.format(q=subj.fill(q, c), a=subj.fill(a, c)))
    text = "\n\n".join([" ".join(s for s in intro if s)] + pairs)
    return _cap(rng.choice(FAQ_TITLES).format(label=ctx["label"])), text.strip()


HEADS = {"where": ("Getting there.", "Location.", "Access."), "route": ("The route.", "Route.", "On the way."),
         "stay": ("Overnight.", "Accommodation.", "Staying the night."),
         "figures": ("Facts.", "Key figures.", "At a glance."),
         "people": ("People.", "Who runs it.", "Who's who."), "past": ("History.", "Background."),
         "contact": ("Bookings.", "Contact.", "Getting in touch."),
         "links": ("Onward.", "Nearby.", "Routes and tours."),
         "when": ("Dates.", "When.")}


def _r_guidebook(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    by_topic: dict[str, list[str]] = {}
    for c in _order(claims, rng):
        by_topic.setdefault(c.topic, []).append(subj.say(c))
    paras = [" ".join(by_topic.pop("kind", []))]
    paras += [rng.choice(HEADS[topic]) + " " + " ".join(lines) for topic, lines in by_topic.items()]
    return ctx["label"], "\n\n".join(p for p in paras if p)


SHEET_TITLES = ("{label}", "{label} – fact sheet", "{label}: key data")
SHEET_NOTES = ("Details are checked each spring and may change.", "Last updated in spring 2025.", "")


def _r_factsheet(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    lines, prose = [], []
    for c in _order(claims, rng):
        if c.sheet:
            lines += [f"{rng.choice(names)}: {shown}" for names, shown in c.sheet]
        else:
            prose.append(subj.say(c))
    head = rng.choice([ctx["label"], ctx["label"].upper()])
    parts = [head, "\n".join(lines), " ".join(prose), rng.choice(SHEET_NOTES)]
    return rng.choice(SHEET_TITLES).format(label=ctx["label"]), "\n\n".join(p for p in parts if p)


PROFILE_FILLER = [("I spend my winters teaching children to ski.", "{p} spends the winters teaching children to ski."),
                  ("My grandfather carried supplies up to the huts on his back.",
                   "{q} grandfather carried supplies up to the huts on his back."),
                  ("I never go up without a thermos of tea.", "{p} never goes up without a thermos of tea."),
                  ("On my days off I am usually out with my dog.", "On days off {p} is usually out with the dog."),
                  ("I grew up in the valley and have climbed since I was a child.",
                   "{p} grew up in the valley and has climbed since childhood."),
                  ("In winter I swap my boots for skis.", "In winter {p} swaps boots for skis."),
                  ("Before the mountains took over, I trained as a carpenter.",
                   "Before the mountains took over, {p} trained as a carpenter."),
                  ("My favourite time of year is late September, when the larches turn gold.",
                   "Late September, when the larches turn gold, is {q} favourite time of year."),
                  ("If you see me on the trail, come and say hello.",
                   "Walkers who meet {o} on the trail are welcome to say hello.")]
PRONOUNS = {"f": {"p": "she", "q": "her", "o": "her"}, "m": {"p": "he", "q": "his", "o": "him"}}


def _r_profile(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    ordered = _order(claims, rng)
    filler = rng.sample(PROFILE_FILLER, 2)
    if rng.random() < 0.5:
        subj.used += 1
        sentences = [rng.choice(("Hi, I'm {n}.", "My name is {n}.", "Hello! I'm {n}.")).format(n=ctx["label"])]
        sentences += [subj.say(c, "me") for c in ordered] + [f[0] for f in filler]
        title = rng.choice((ctx["label"], f"About me – {ctx['label']}", f"Meet {ctx['label']}"))
    else:
        sentences = [subj.say(c) for c in ordered]
        sentences += [_cap(f[1].format(**PRONOUNS[ctx["sex"]])) for f in filler]
        title = rng.choice((ctx["label"], f"Meet {ctx['label']}", f"{ctx['label']}, {LABEL[ctx['cls']]}"))
    keep = sentences[:3]
    rest = sentences[3:]
    rng.shuffle(rest)   # facts and background mixed
    return title, "\n\n".join(_paras(keep + rest, rng, 3))


LISTING_TITLES = {"section": ("{label}: our huts", "Huts of {name}", "{label}"),
                  "valley": ("Huts and shelters in {label}", "{label}", "Sleeping in {label}")}


def _r_listing(subj: Subject, ctx: dict, claims: list[Claim], rng: random.Random) -> tuple[str, str]:
    ordered = _order(claims, rng)
    table = next(c for c in ordered if c.rows)
    caption, header, rows, _ = table.rows
    before = [subj.say(c) for c in ordered if c is not table][:3]
    after = [subj.say(c) for c in ordered if c is not table][3:]
    if rng.random() < 0.5:
        grid = "\n".join([" | ".join(header)] + [" | ".join(r) for r in rows])
    else:
        grid = "\n".join(f"- {r[0]} ({r[1]}, {r[2]} beds, {r[3]})" for r in rows)
    parts = [" ".join(before), f"{caption}:\n{grid}", " ".join(after)]
    title = rng.choice(LISTING_TITLES[ctx["kind"]]).format(label=ctx["label"], name=subj.name)
    return _cap(title), "\n\n".join(p for p in parts if p)


RENDER = {"trip": _r_trip, "welcome": _r_welcome, "news": _r_news, "faq": _r_faq, "guidebook": _r_guidebook,
          "factsheet": _r_factsheet, "profile": _r_profile, "listing": _r_listing}
LAYOUTS = {
    "hut": (("welcome", 4), ("faq", 2), ("guidebook", 2), ("factsheet", 2), ("news", 1)),
    "refuge": (("welcome", 2), ("guidebook", 2), ("factsheet", 2), ("faq", 1)),
    "bivouac": (("guidebook", 3), ("trip", 2), ("factsheet", 2), ("faq", 1)),
    "trail": (("trip", 4), ("guidebook", 3), ("factsheet", 2), ("faq", 1)),
    "summit": (("guidebook", 3), ("trip", 2), ("factsheet", 2)),
    "village": (("guidebook", 2), ("faq", 2), ("factsheet", 1)),
    "valley": (("listing", 3), ("guidebook", 1)),
    "section": (("listing", 4), ("news", 1)),
    "warden": (("profile", 5), ("news", 2), ("factsheet", 1)),
    "guide": (("profile", 5), ("factsheet", 1), ("faq", 1)),
    "volunteer": (("profile", 4), ("news", 1)),
    "tour": (("news", 4), ("faq", 2), ("factsheet", 2)),
}


# ---------------------------------------------------------------- pages


def _page_kind(t: Thing) -> str:
    return {"StaffedHut": "hut", "Bivouac": "bivouac", "Refuge": "refuge", "HikingTrail": "trail",
            "ViaFerrata": "trail", "HutWarden": "warden", "MountainGuide": "guide", "Volunteer": "volunteer",
            "GuidedTour": "tour", "ClubSection": "section"}.get(t.cls, t.cls.lower())


def _valley_of(t: Thing) -> Thing | None:
    x = t.facts
    for step in ("locatedIn", "summitIn", "village_valley"):
        if step in x:
            return x[step]
    for step in ("trail_start", "tour_start", "basedIn", "worksFrom"):
        if step in x:
            return _valley_of(x[step])
    for step in ("wardenOf", "helpsAt"):
        if step in x:
            return _valley_of(x[step][0])
    return t if t.cls == "Valley" else None


def _context(t: Thing, w: World, rng: random.Random) -> dict[str, Any]:
    """What a layout needs beyond the claims: the place and day of a news item, the month of a walk."""
    valley = _valley_of(t)
    towns = w.linked("village_valley", valley, w.villages) if valley else []
    place = t.facts["basedIn"].label if "basedIn" in t.facts else (towns[0].label if towns else RANGE_NAME)
    if t.cls == "GuidedTour":
        pub = dt.date.fromisoformat(t.facts["tourDate"]) - dt.timedelta(days=rng.randint(18, 60))
    else:
        pub = dt.date(2025, 4, 1) + dt.timedelta(days=rng.randint(0, 60))
    host = t.facts["keptBy"].label.split()[0] if "keptBy" in t.facts else None
    return {"kind": _page_kind(t), "label": t.label, "cls": t.cls, "sex": t.sex, "place": place,
            "pub": _day(pub.isoformat()), "month": rng.choice(MONTHS[5:9]), "host": host}


def _note(said: set, triple: tuple[str, str, str]) -> None:
    said.add(triple)
    if triple[1] in INVERSE:   # "she keeps the Brenni Hut" also says that the hut is kept by her
        said.add((triple[2], INVERSE[triple[1]], triple[0]))


BUILDERS = {"hut": _shelter_claims, "bivouac": _shelter_claims, "refuge": _shelter_claims,
            "trail": _trail_claims, "summit": _summit_claims, "village": _village_claims,
            "valley": _valley_claims, "section": _section_claims, "warden": _warden_claims, "guide": _guide_claims,
            "volunteer": _volunteer_claims, "tour": _tour_claims}


def _page(t: Thing, w: World, rng: random.Random, said: set) -> dict[str, Any]:
    kind = _page_kind(t)
    claims = _trail_claims(t, w, rng) if kind == "trail" else BUILDERS[kind](t, w)
    kept = [c for c in claims if c.core or rng.random() < 0.8]
    hosted = any(c.says[0][1] == "keptBy" for c in kept)
    choices = [(name, n) for name, n in LAYOUTS[kind] if name != "listing" or any(c.rows for c in kept)]
    layout = rng.choices([c for c, _ in choices], weights=[n for _, n in choices])[0]
    ctx = _context(t, w, rng)
    if not hosted:
        ctx["host"] = None   # the welcome page is signed by the warden only when it says who that is
    title, text = RENDER[layout](Subject(t, rng), ctx, kept, rng)
    for c in kept:
        for triple in (c.rows[3] if layout == "listing" and c.rows else c.says):
            _note(said, triple)
    return {"id": f"{kind}-{_slug(t.label, '-')}", "title": title, "text": text, "about": NS + t.key, "layout": layout}


def _pages(w: World, rng: random.Random) -> tuple[list[dict[str, Any]], set]:
    """One page per thing of the world, and what the pages say, as triples."""
    said: set = set()
    pages = [_page(t, w, rng, said) for group in w.groups() for t in group]
    return pages, said


# ---------------------------------------------------------------- questions
# A candidate: wordings of the question ({x} the thing asked about), x, the answer (a list when several),
# a pool of wrong options of the same sort, and whether it is asked open, with options or both. Each
# kind gives groups of candidates, one group per sort, taken in turn so that a kind mixes its sorts.


@dataclass
class Cand:
    wordings: tuple[str, ...]
    x: str
    answer: str | list[str]
    pool: list[str]
    mode: str = "both"      # open, options or both


def _cand(wordings: tuple[str, ...], x: str, answer: str | list[str], pool: list[str], mode: str = "both") -> Cand:
    if isinstance(answer, list) and len(answer) == 1:
        answer = answer[0]
    return Cand(wordings, x, answer, pool, mode)


def _x(t: Thing) -> str:
    """How a question names a thing."""
    return f'the "{t.label}" tour' if t.cls == "GuidedTour" else _prose(t)


def _labels(things: list[Thing]) -> list[str]:
    return [t.label for t in things]


def _attr(things: list[Thing], prop: str, said: set, wordings: tuple[str, ...], pool: list[str] | None = None,
          show=str) -> list[Cand]:
    """Questions on one value of each thing that has it, when a page says it; `show` as the answer writes it."""
    out = []
    for t in things:
        if prop in t.facts and (t.key, prop, str(t.facts[prop])) in said:
            v = show(t.facts[prop])
            out.append(_cand(wordings, _x(t), v, pool if pool is not None else _near_or_others(v, things, prop, show)))
    return out


def _near_or_others(v: str, things: list[Thing], prop: str, show) -> list[str]:
    """Wrong options for a value: other years of the same sort, numbers close to it, or the others' values."""
    if RANGE[prop] == "xsd:gYear":
        n = int(v)
        return [str(t.facts[prop]) for t in things if prop in t.facts] + [str(n + d) for d in (-11, -4, 3, 8)]
    if v.isdigit():
        n = int(v)
        step = max(1, n // 20)
        return [str(n + d * step) for d in (-3, -2, -1, 1, 2, 3) if n + d * step > 0]
    return [show(t.facts[prop]) for t in things if prop in t.facts]


def _hop(things: list[Thing], prop: str, said: set, wordings: tuple[str, ...], pool: list[str]) -> list[Cand]:
    out = []
    for t in things:
        o = t.facts.get(prop)
        if isinstance(o, Thing) and (t.key, prop, o.key) in said:
            out.append(_cand(wordings, _x(t), o.label, pool))
    return out


def _q_attribute(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    paths, ferratas = [t for t in w.trails if t.cls == "HikingTrail"], [t for t in w.trails if t.cls == "ViaFerrata"]
    grade_q = ("What grade is {x}?", "How difficult is {x} rated?", "What difficulty grade does {x} carry?")
    huts = [s for s in w.shelters if s.cls == "StaffedHut"]
    return [
        _attr(paths, "grade", said, grade_q, [f"T{i}" for i in range(1, 7)]),
        _attr(ferratas, "grade", said, grade_q, [f"K{i}" for i in range(1, 7)]),
        _attr(huts, "opening_month", said, ("In which month does {x} open for the season?",
                                            "When does the summer season start at {x}?"), MONTHS[4:8]),
        _attr(w.volunteers, "task", said, ("What does {x} mainly do as a volunteer?",
                                           "What is {x}'s main job when helping out?"), TASKS),
    ]


def _q_contact(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    huts = [s for s in w.shelters if s.cls == "StaffedHut"]
    sites = [t.facts["homepage"] for t in huts + w.sections if "homepage" in t.facts]
    mails = [t.facts["e_mail"] for t in w.guides + w.sections if "e_mail" in t.facts]
    return [
        _attr(huts, "phone", said, ("What number do I ring to book a bed at {x}?", "What is the phone number of {x}?"),
              [s.facts["phone"] for s in huts]),
        _attr(w.guides, "phone", said, ("How can I reach mountain guide {x} by phone?", "What is {x}'s phone number?"),
              [g.facts["phone"] for g in w.guides]),
        _attr(w.guides, "e_mail", said, ("What is {x}'s e-mail address?", "Where can I write to {x}?"), mails),
        _attr(w.sections, "e_mail", said, ("What e-mail address does {x} use?", "How do I e-mail {x}?"), mails),
        _attr(huts + w.sections, "homepage", said, ("What is the web address of {x}?", "Where is {x} on the web?"),
              sites),
    ]


def _q_relation(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    places = _labels(w.villages + w.shelters)
    huts = [s for s in w.shelters if s.cls == "StaffedHut"]
    return [
        _hop(w.shelters, "locatedIn", said, ("Which valley is {x} in?", "In what valley does {x} stand?"),
             _labels(w.valleys)),
        _hop(w.shelters, "owned_by", said, ("Which club section owns {x}?", "Who does {x} belong to?"),
             _labels(w.sections)),
        _hop(huts, "keptBy", said, ("Who looks after {x}?", "Who is the warden at {x}?", "Who keeps {x}?"),
             _labels(w.wardens)),
        _hop(w.trails, "trail_start", said, ("Where does {x} start?", "From where does {x} set off?"), places),
        _hop(w.trails, "trail_end", said, ("Where does {x} end?", "Where do you come out at the end of {x}?"), places),
        _hop(w.trails, "reaches", said, ("Which summit does {x} lead to?", "Which peak can you climb by {x}?"),
             _labels(w.summits)),
        _hop(w.summits, "summitIn", said, ("Which valley does {x} rise above?", "In which valley is {x}?"),
             _labels(w.valleys)),
        _hop(w.guides, "certifiedBy", said, ("Which section licensed {x}?", "Who did {x} get a guiding licence from?"),
             _labels(w.sections)),
        _hop(w.guides, "worksFrom", said, ("Where is {x} based?", "Which village does {x} work from?"),
             _labels(w.villages)),
        _hop(w.tours, "ledBy", said, ("Who leads {x}?", "Which guide is in charge of {x}?"), _labels(w.guides)),
        _hop(w.tours, "follows", said, ("Which route does {x} follow?",), _labels(w.trails)),
        _hop(w.tours, "tour_start", said, ("Where does {x} meet?", "At which shelter does {x} start?"),
             _labels(w.shelters)),
        _hop(w.sections, "basedIn", said, ("Where does {x} have its office?",), _labels(w.villages)),
        _hop(w.villages, "village_valley", said, ("Which valley is {x} in?",), _labels(w.valleys)),
    ]


def _inverse(pairs: list[tuple[Thing, list[Thing]]], prop: str, said: set, wordings: tuple[str, ...],
             pool: list[str], reverse: bool = True) -> list[Cand]:
    """Questions asking for every thing linked to one, when every link is said on some page."""
    out = []
    for x, items in pairs:
        links = [(i.key, prop, x.key) if reverse else (x.key, prop, i.key) for i in items]
        if items and all(t in said for t in links):
            out.append(_cand(wordings, _x(x), _labels(items), pool))
    return out


def _q_inverse_list(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    trails, places = _labels(w.trails), w.villages + w.shelters
    return [
        _inverse([(p, w.linked("trail_start", p, w.trails)) for p in places], "trail_start", said,
                 ("Which routes start at {x}?", "What routes set off from {x}?"), trails),
        _inverse([(c, c.facts["owns"]) for c in w.sections], "owned_by", said,
                 ("Which shelters does {x} own?", "List the huts and shelters belonging to {x}."), _labels(w.shelters)),
        _inverse([(p, p.facts["wardenOf"]) for p in w.wardens], "keptBy", said,
                 ("Which huts does {x} look after?", "Where is {x} the warden?"), _labels(w.shelters)),
        _inverse([(g, w.linked("ledBy", g, w.tours)) for g in w.guides], "ledBy", said,
                 ("Which tours is {x} leading?", "What guided tours does {x} lead?"), _labels(w.tours)),
        _inverse([(m, w.linked("reaches", m, w.trails)) for m in w.summits], "reaches", said,
                 ("Which routes lead to the top of {x}?", "By which routes can I climb {x}?"), trails),
        _inverse([(v, w.linked("worksFrom", v, w.guides)) for v in w.villages], "worksFrom", said,
                 ("Which mountain guides work from {x}?",), _labels(w.guides)),
        _inverse([(s, w.linked("helpsAt", s, w.volunteers)) for s in w.shelters], "helpsAt", said,
                 ("Who volunteers at {x}?", "Which volunteers help out at {x}?"), _labels(w.volunteers)),
        _inverse([(v, w.linked("summitIn", v, w.summits)) for v in w.valleys], "summitIn", said,
                 ("Which summits rise above {x}?",), _labels(w.summits)),
    ]


def _chain(things: list[Thing], first: str, second: str, said: set, wordings: tuple[str, ...],
           pool: list[str], when=lambda mid: True) -> list[Cand]:
    """Two hops: `first` from the thing asked about, then `second` from where that leads."""
    out = []
    for t in things:
        mid = t.facts.get(first)
        end = mid.facts.get(second) if isinstance(mid, Thing) else None
        if isinstance(end, Thing) and when(mid) and {(t.key, first, mid.key), (mid.key, second, end.key)} <= said:
            out.append(_cand(wordings, _x(t), end.label, pool))
    return out


def _q_two_hop(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    valleys, sections, villages = _labels(w.valleys), _labels(w.sections), _labels(w.villages)
    return [
        _chain(w.tours, "tour_start", "keptBy", said, ("Who keeps the hut where {x} starts?",
                                                       "Who is the warden of the hut that {x} meets at?"),
               _labels(w.wardens), when=lambda s: s.cls == "StaffedHut"),
        _chain(w.trails, "reaches", "summitIn", said, ("In which valley is the summit that {x} leads to?",
                                                       "Which valley does the peak at the top of {x} rise above?"),
               valleys),
        _chain(w.tours, "ledBy", "certifiedBy", said, ("Which section licensed the guide who leads {x}?",), sections),
        _chain(w.tours, "tour_start", "locatedIn", said, ("In which valley does {x} meet?",
                                                          "Which valley is the meeting point of {x} in?"), valleys),
        _chain(w.shelters, "owned_by", "basedIn", said, ("Where does the section that owns {x} have its office?",
                                                         "In which village is the owner of {x} based?"), villages),
        _chain(w.trails, "trail_end", "owned_by", said, ("Which section owns the shelter where {x} ends?",), sections,
               when=lambda p: p.cls != "Village"),
        _chain(w.tours, "ledBy", "worksFrom", said, ("Where is the guide of {x} based?",), villages),
        _chain(w.tours, "follows", "reaches", said, ("Which summit does {x} climb?",
                                                     "Which peak does the route of {x} lead to?"), _labels(w.summits)),
    ]


def _near(n: int) -> list[str]:
    return [str(n + d) for d in (-2, -1, 1, 2, 3) if n + d >= 0]


def _counted(pairs: list[tuple[Thing, list[Thing], list[tuple]]], said: set, wordings: tuple[str, ...]) -> list[Cand]:
    return [_cand(wordings, _x(x), str(len(items)), _near(len(items))) for x, items, links in pairs
            if items and all(t in said for t in links)]


def _in_valley(w: World, v: Thing, said: set, typed: bool) -> list[Thing] | None:
    """The shelters of valley `v`, when every page needed to tell them (and, if `typed`, their kinds) says so."""
    here = w.linked("locatedIn", v, w.shelters)
    if all((s.key, "locatedIn", v.key) in said and (not typed or (s.key, "type", s.cls) in said) for s in here):
        return here
    return None


def _q_count(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    by_kind, every = [], []
    for v in w.valleys:
        here = _in_valley(w, v, said, False)
        if here:
            every.append(_cand(("How many shelters of every kind are there in {x}?",
                                "Counting huts, bivouacs and refuges, how many shelters does {x} have?"),
                               v.label, str(len(here)), _near(len(here))))
        typed = _in_valley(w, v, said, True) or []
        for cls in ("StaffedHut", "Bivouac", "Refuge"):
            n = sum(s.cls == cls for s in typed)
            if n:
                by_kind.append(_cand((f"How many {PLURAL[cls]} are there in {{x}}?",), v.label, str(n), _near(n)))
    links = lambda prop, x, among: [(i.key, prop, x.key) for i in w.linked(prop, x, among)]
    return [
        every, by_kind,
        _counted([(c, c.facts["owns"], links("owned_by", c, w.shelters)) for c in w.sections], said,
                 ("How many shelters does {x} own?", "How many huts and shelters belong to {x}?")),
        _counted([(p, w.linked("trail_start", p, w.trails), links("trail_start", p, w.trails)) for p in w.villages],
                 said, ("How many routes start from {x}?",)),
        _counted([(g, w.linked("ledBy", g, w.tours), links("ledBy", g, w.tours)) for g in w.guides], said,
                 ("How many tours is {x} leading this summer?", "How many guided tours does {x} lead?")),
        _counted([(m, w.linked("reaches", m, w.trails), links("reaches", m, w.trails)) for m in w.summits], said,
                 ("How many routes lead to the top of {x}?",)),
    ]


def _q_class_list(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    pool = _labels(w.shelters)
    every, by_kind, owned = [], [], []
    for v in w.valleys:
        here = _in_valley(w, v, said, False)
        if here:
            every.append(_cand(("Which shelters are there in {x}?",
                                "Where can I spend the night in {x}? Name every shelter.",
                                "List all the huts, bivouacs and refuges in {x}."), v.label, _labels(here), pool))
        for cls in ("StaffedHut", "Bivouac", "Refuge"):
            hits = [s.label for s in _in_valley(w, v, said, True) or [] if s.cls == cls]
            if hits:
                by_kind.append(_cand((f"Which {PLURAL[cls]} are there in {{x}}?",
                                      f"Can you name the {PLURAL[cls]} in {{x}}?"), v.label, hits, pool))
    for c in w.sections:
        mine = c.facts["owns"]
        if all((s.key, "owned_by", c.key) in said and (s.key, "type", s.cls) in said for s in mine):
            for cls in ("StaffedHut", "Bivouac"):
                hits = [s.label for s in mine if s.cls == cls]
                if hits:
                    owned.append(_cand((f"Which {PLURAL[cls]} does {{x}} own?",), _x(c), hits, pool))
    return [every, by_kind, owned]


def _q_class_membership(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    typed = lambda things: [t for t in things if (t.key, "type", t.cls) in said]
    hide = ("bivouac", "bivacco", "refuge", "shelter", "box", "ferrata", "klettersteig", "attrezzato")
    shelters, trails, people = typed(w.shelters), typed(w.trails), typed(w.wardens + w.guides + w.volunteers)
    opens = [
        [_cand(("What kind of shelter is {x}?", "What type of mountain shelter is {x}?"), _x(s), LABEL[s.cls],
               [LABEL[c] for c in ("StaffedHut", "Bivouac", "Refuge")], "open")
         for s in shelters if not any(h in s.label.casefold() for h in hide)],
        [_cand(("Is {x} a hiking trail or a via ferrata?", "What kind of route is {x}?"), _x(t), LABEL[t.cls],
               [LABEL["HikingTrail"], LABEL["ViaFerrata"]], "open") for t in trails
         if not any(h in t.label.casefold() for h in hide)],
        [_cand(("What does {x} do in the mountains?", "What is {x}'s role with the club?"), p.label, LABEL[p.cls],
               [LABEL[c] for c in ("HutWarden", "MountainGuide", "Volunteer")], "open") for p in people],
    ]
    one, several = [], []
    for cls, among in (("Bivouac", shelters), ("Refuge", shelters), ("StaffedHut", shelters), ("ViaFerrata", trails),
                       ("MountainGuide", people), ("HutWarden", people)):
        members = [t for t in among if t.cls == cls]
        others = [t.label for t in among if t.cls != cls]
        one += [_cand((f"Which of these is {_an(LABEL[cls])}?",), "", m.label, others, "options") for m in members]
        if len(members) >= 3:
            several.append(_cand((f"Which of these are {PLURAL[cls]}?",), "",
                                 _labels(rng.sample(members, rng.choice([2, 3]))), others, "options"))
    return opens + [one, several]


def _q_date(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    days = [_day(t.facts["tourDate"]) for t in w.tours]
    return [_attr(w.tours, "tourDate", said, ("When is {x}?", "On what date does {x} take place?",
                                              "Which day should I keep free for {x}?"), days, show=_day)]


def _q_year(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    return [_attr(w.shelters, "builtIn", said, ("When was {x} built?", "In what year was {x} built?")),
            _attr(w.wardens, "wardenSince", said, ("Since when has {x} been a hut warden?",
                                                   "In which year did {x} become a hut warden?")),
            _attr(w.sections, "founded", said, ("When was {x} founded?", "In what year was {x} set up?"))]


def _q_numeric(w: World, said: set, rng: random.Random) -> list[list[Cand]]:
    huts = [s for s in w.shelters if s.cls == "StaffedHut"]
    return [
        _attr(w.shelters, "elevation_m", said, ("How high is {x}, in metres?", "At what altitude does {x} stand?")),
        _attr(w.summits, "elevation_m", said, ("How high is {x}?", "What is the height of {x} in metres?")),
        _attr(w.villages, "elevation_m", said, ("At what altitude is {x}?",)),
        _attr(w.shelters, "beds", said, ("How many beds does {x} have?", "How many people can sleep at {x}?")),
        _attr(w.trails, "length_km", said, ("How long is {x}, in kilometres?", "What distance does {x} cover?")),
        _attr(w.trails, "walkingTime", said, ("How many hours does {x} take?", "What walking time is given for {x}?")),
        _attr(huts, "priceNight", said, ("How much does a night at {x} cost, in euros?",
                                         "What is the overnight price at {x}?")),
        _attr(w.tours, "fee", said, ("What does a place on {x} cost?", "How much is {x} per person, in euros?")),
    ]


KINDS = {"attribute": _q_attribute, "contact": _q_contact, "relation": _q_relation, "inverse_list": _q_inverse_list,
         "two_hop": _q_two_hop, "count": _q_count, "class_list": _q_class_list,
         "class_membership": _q_class_membership, "date": _q_date, "year": _q_year, "numeric": _q_numeric}


def _questions(w: World, said: set, rng: random.Random, per_kind: int = 6) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, make in KINDS.items():
        order = in_turn(make(w, said, rng), rng)
        opens = [c for c in order if c.mode != "options"][:per_kind]
        chosen = [c for c in order if c.mode != "open" and all(c is not o for o in opens)][:per_kind]
        for i, c in enumerate(opens + chosen):
            q = {"id": f"alpine-{kind}-{i + 1:02d}", "kind": kind,
                 "question": _cap(rng.choice(c.wordings).format(x=c.x))}
            if i < len(opens):
                out.append({**q, "type": "open", "answer": c.answer})
                continue
            options, answers = with_options(c.answer, c.pool, rng)
            out.append({**q, "type": "MAQ" if len(answers) > 1 else "MCQ", "options": options, "answers": answers})
    return out


def generate(seed: int = 7) -> DomainData:
    rng = random.Random(seed)
    world = _build_world(rng)
    pages, said = _pages(world, rng)
    return DomainData(name="alpine", schema_ttl=_schema_ttl(), gold_ttl=_gold_ttl(world), pages=pages,
                      questions=_questions(world, said, rng))
