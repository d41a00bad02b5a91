"""Film archive domain: screen works (feature films, documentaries, short films and television series),
the directors and actors credited on them, production companies, countries, genres and awards.

`generate(seed)` invents an archive, writes its OWL schema and gold facts in Turtle, one page per work,
person, company and award in five layouts (fields, prose, news, qa, mixed), and questions of eight kinds.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field

from benchmarks.domains import DomainData, literal, property_ttl

NS = "http://example.org/archive#"
PREFIXES = f"""@prefix fa: <{NS}> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""

# (local name, parent, label, comment)
CLASSES = [
    ("Work", None, "creative work", "Anything the archive catalogues as a finished screen work: a film or a series."),
    ("Film", "Work", "motion picture", "A screen work shown in one piece, whatever its length."),
    ("FeatureFilm", "Film", "feature-length film", "A fiction film long enough to fill a cinema programme alone."),
    ("Documentary", "Film", "documentary film", "A non-fiction film that records real people, places or events."),
    ("ShortFilm", "Film", "short film", "A film that runs for well under an hour, usually under forty minutes."),
    ("Series", "Work", "television series", "A screen work told in episodes broadcast over time."),
    ("Person", None, "person", "Someone credited in the archive."),
    ("Director", "Person", "film director", "A person known mainly for directing screen works."),
    ("Actor", "Person", "screen actor", "A person known mainly for performing in front of the camera."),
    ("ProductionCompany", None, "production company", "A studio or company that finances and makes screen works."),
    ("Country", None, "country", "A nation where people are born, companies are based or ceremonies are held."),
    ("Genre", None, "genre", "A kind of story or subject by which works are grouped."),
    ("Award", None, "screen award", "A prize given to screen works."),
    ("FestivalPrize", "Award", "festival prize", "An award handed out by the jury of a film festival."),
]

# (local name, object?, domain, range, label, comment, inverse of)
PROPERTIES = [
    ("directedBy", True, "Work", "Director", "directed by", "The director responsible for a work.", None),
    ("directorOf", True, "Director", "Work", "helmed", "A work that this person directed.", "directedBy"),
    ("starring", True, "Work", "Person", "has in its cast", "A performer who appears in the work.", None),
    ("producedBy", True, "Work", "ProductionCompany", "made by studio", "The company that produced the work.", None),
    ("hasGenre", True, "Work", "Genre", "classed under genre", "A genre the work is grouped under.", None),
    ("wonAward", True, "Film", "Award", "picked up the prize", "An award or festival prize the film won.", None),
    ("bornIn", True, "Person", "Country", "country of birth", "The country where the person was born.", None),
    ("headquarteredIn", True, "ProductionCompany", "Country", "has its head office in",
     "The country where the company is based.", None),
    ("heldIn", True, "Award", "Country", "takes place in", "The country where the award ceremony is held.", None),
    ("releaseDate", False, "Film", "date", "premiere date", "The day the film was first released.", None),
    ("runningTime", False, "Film", "integer", "length in minutes", "How long the film runs, in minutes.", None),
    ("budget", False, "Film", "decimal", "production budget",
     "What the film cost to make, in millions of US dollars.", None),
    ("birthYear", False, "Person", "gYear", "year of birth", "The year the person was born.", None),
    ("foundingYear", False, "ProductionCompany", "gYear", "year established", "The year the company was set up.",
     None),
    ("episodeCount", False, "Series", "integer", "number of episodes", "How many episodes the series has.", None),
    ("firstAired", False, "Series", "gYear", "year of first broadcast", "The year the series was first shown.", None),
    ("firstAwarded", False, "Award", "gYear", "year first handed out", "The year the award was first given.", None),
]
PROP_RANGE = {p[0]: p[3] for p in PROPERTIES}
EXTRAS = ("castIn", "produced")  # page-only lists (inverse of starring / producedBy), never in the gold
DERIVED = {"releaseDate_iso": "releaseDate", "genre_phrase": "hasGenre"}

PAGE_KIND = {"FeatureFilm": "film", "Documentary": "film", "ShortFilm": "film", "Series": "series",
             "Director": "director", "Actor": "actor", "ProductionCompany": "company", "Award": "award",
             "FestivalPrize": "award"}
KIND_PROPS = {
    "film": ["directedBy", "producedBy", "hasGenre", "releaseDate", "runningTime", "budget", "starring", "wonAward"],
    "series": ["directedBy", "producedBy", "hasGenre", "firstAired", "episodeCount", "starring"],
    "director": ["birthYear", "bornIn", "directorOf"],
    "actor": ["birthYear", "bornIn", "castIn"],
    "company": ["foundingYear", "headquarteredIn", "produced"],
    "award": ["heldIn", "firstAwarded"],
}
CLASS_WORD = {"FeatureFilm": "feature film", "Documentary": "documentary", "ShortFilm": "short film",
              "Series": "television series", "Director": "film director", "Actor": "actor",
              "ProductionCompany": "production company", "Award": "industry award", "FestivalPrize": "festival prize"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]

# ---- name pools (invented for this archive) ----
COUNTRIES = ["France", "Japan", "Brazil", "Canada", "Italy", "India", "Mexico", "Norway", "South Korea",
             "Nigeria", "Argentina", "Poland"]
FICTION_GENRES = ["drama", "comedy", "thriller", "science fiction", "horror", "romance", "crime", "musical"]
DOC_GENRES = ["nature", "history", "biography", "travel"]
FEMALE = ["Ana", "Marta", "Ines", "Yuki", "Leila", "Sofia", "Noor", "Greta", "Ama", "Camila", "Ilse", "Hana",
          "Rosa", "Tove", "Mira", "Oona", "Priya", "Zofia", "Lucia", "Adaeze", "Mei", "Carmen", "Freya", "Paola"]
MALE = ["Tomas", "Kenji", "Rafael", "Olu", "Matteo", "Arjun", "Lars", "Diego", "Pavel", "Emeka", "Hugo", "Ravi",
        "Anders", "Bruno", "Caio", "Teodor", "Felix", "Idris", "Joaquin", "Stefan", "Jun", "Nils", "Kofi", "Dario"]
SURNAMES = ["Velhoek", "Arbela", "Brennick", "Castellaro", "Dovrenko", "Elmqvist", "Farrowby", "Galindre",
            "Hollisand", "Ivaska", "Kestrova", "Lindahlen", "Moravec", "Nwachira", "Oyelaran", "Pellucci",
            "Quarenghi", "Rossvik", "Saldana-Ruiz", "Tamborra", "Ulvestad", "Varnhagen", "Wexbury", "Yamashiro",
            "Zelenka", "Achterberg", "Bosquet", "Coutinho", "Delacroix-Mba", "Esterhazy", "Fontanella", "Grieben",
            "Haraldsen", "Iwabuchi", "Jovanic", "Kallistra", "Lumbreras", "Marchetti", "Nakagawa", "Ostrander"]
ADJ = ["Glass", "Silent", "Amber", "Hollow", "Northern", "Paper", "Crimson", "Quiet", "Salt", "Last", "Burning",
       "Second", "Distant", "Velvet", "Broken", "Little", "Wandering", "Winter", "Hidden", "Bright", "Restless"]
NOUN = ["Orchard", "Harbour", "Mirror", "Garden", "River", "Tower", "Horizon", "Station", "Kingdom", "Echo",
        "Shore", "Letter", "Meadow", "Voyage", "Bridge", "Island", "Orchestra", "Ferry", "Circus", "Hotel", "Border",
        "Lighthouse", "Summer", "Season", "Valley", "Window", "Choir", "Mountain"]
PLACES = ["Kallmoor", "Arcadine", "Calder Bay", "Dunmarrow", "Estrel", "Fennick", "Gorsewick", "Halloran Point",
          "Merrowdale", "Sollent", "Tarrow", "Vinsk"]
TITLE_PATTERNS = {
    "FeatureFilm": ["The {A} {N}", "Beyond the {N}", "The {N} of {P}", "A {N} in {M}", "{A} {N}"],
    "Documentary": ["Voices of {P}", "Keepers of the {N}", "Inside the {N}", "Rivers of {P}", "The Last {N}"],
    "ShortFilm": ["Small {N}", "{A} Hours", "The {N} Game", "{N} at Dawn", "Two {A} Nights"],
    "Series": ["{P} Nights", "The {S} Files", "House of {S}", "{N} Street", "{P} General"],
}
COMPANY_WORDS = ["Lanternfield", "Northgate", "Bluewick", "Corvid", "Halden", "Marisol", "Ironbark", "Stillwater",
                 "Quaymark", "Redfern", "Oakhollow", "Saltmarsh", "Tindra", "Vesperline"]
COMPANY_TAILS = ["Pictures", "Films", "Studios", "Media", "Productions"]
AWARDS = [("Golden Heron Prize", "FestivalPrize"), ("Silver Reel Award", "Award"),
          ("Amber Lantern Prize", "FestivalPrize"), ("Crystal Compass Award", "Award"),
          ("Jade Gate Prize", "FestivalPrize"), ("Blue Tide Award", "Award"),
          ("Copper Owl Prize", "FestivalPrize"), ("Iron Lens Award", "Award")]


@dataclass
class Ent:
    key: str
    cls: str
    label: str
    facts: dict[str, list] = field(default_factory=dict)   # property -> values (Ent or lexical string)
    extra: dict[str, list] = field(default_factory=dict)   # page-only lists
    gender: str = "n"

    def get(self, prop: str) -> list:
        return self.facts.get(prop) or self.extra.get(prop) or []

    def year(self) -> int:
        if "releaseDate" in self.facts:
            return int(self.facts["releaseDate"][0][:4])
        return int(self.facts["firstAired"][0])


def _slug(text: str, sep: str = "_") -> str:
    out = "".join(c.lower() if c.isalnum() else " " for c in text)
    return sep.join(out.split())


def _ent(prefix: str, cls: str, label: str, gender: str = "n") -> Ent:
    return Ent(f"{prefix}_{_slug(label)}", cls, label, gender=gender)


def _join(items: list[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _num(x: float, places: int) -> str:
    text = f"{x:.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# ---------------------------------------------------------------- the world
def _titles(rng: random.Random, cls: str, n: int, taken: set[str]) -> list[str]:
    out = []
    while len(out) < n:
        pat = rng.choice(TITLE_PATTERNS[cls])
        title = pat.format(A=rng.choice(ADJ), N=rng.choice(NOUN), P=rng.choice(PLACES), M=rng.choice(MONTHS),
                           S=rng.choice(SURNAMES))
        title = title.replace("A O", "An O").replace("A E", "An E").replace("A I", "An I")
        if title not in taken:
            taken.add(title)
            out.append(title)
    return out


def _people(rng: random.Random, countries: list[Ent]) -> tuple[list[Ent], list[Ent]]:
    names: list[tuple[str, str]] = []
    seen: set[str] = set()
    surnames = rng.sample(SURNAMES, len(SURNAMES))
    while len(names) < 62:
        gender = rng.choice("fm")
        first = rng.choice(FEMALE if gender == "f" else MALE)
        last = surnames[len(names) % len(surnames)] if len(names) < len(surnames) else rng.choice(SURNAMES)
        if f"{first} {last}" not in seen:
            seen.add(f"{first} {last}")
            names.append((f"{first} {last}", gender))
    people = []
    for i, (name, gender) in enumerate(names):
        p = _ent("person", "Director" if i < 22 else "Actor", name, gender)
        p.facts["bornIn"] = [rng.choice(countries)]
        people.append(p)
    return people[:22], people[22:]


def _works(rng: random.Random) -> dict[str, list[Ent]]:
    taken: set[str] = set()
    sizes = {"FeatureFilm": 40, "Documentary": 16, "ShortFilm": 14, "Series": 12}
    out: dict[str, list[Ent]] = {}
    for cls, n in sizes.items():
        out[cls] = [_ent("series" if cls == "Series" else "film", cls, t) for t in _titles(rng, cls, n, taken)]
    for cls, lo, hi, mins, money in (("FeatureFilm", 1968, 2023, (84, 172), (0.8, 95.0, 1)),
                                     ("Documentary", 1982, 2023, (52, 118), (0.2, 6.0, 1)),
                                     ("ShortFilm", 1990, 2023, (7, 38), (0.02, 0.6, 2))):
        for f in out[cls]:
            day = f"{rng.randint(lo, hi)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f.facts["releaseDate"] = [day]
            f.facts["runningTime"] = [str(rng.randint(*mins))]
            f.facts["budget"] = [_num(rng.uniform(money[0], money[1]), money[2])]
    for s in out["Series"]:
        s.facts["firstAired"] = [str(rng.randint(1984, 2022))]
        seasons = min(2024 - int(s.facts["firstAired"][0]), rng.randint(1, 6))
        s.facts["episodeCount"] = [str(seasons * rng.choice([6, 8, 10, 12, 13]))]
    return out


def _spread(rng: random.Random, items: list[Ent], targets: list[Ent], prop: str) -> None:
    """Give every target one item, every item at least one target (targets >= items)."""
    order = rng.sample(targets, len(targets))
    for i, t in enumerate(order):
        item = items[i] if i < len(items) else rng.choice(items)
        t.facts.setdefault(prop, []).append(item)


def _cast(rng: random.Random, works: dict[str, list[Ent]], actors: list[Ent], directors: list[Ent]) -> None:
    slots = []
    for cls, lo, hi in (("FeatureFilm", 2, 4), ("ShortFilm", 1, 2), ("Series", 2, 3)):
        slots += [(w, rng.randint(lo, hi)) for w in works[cls]]
    queue = rng.sample(actors, len(actors))
    for w, n in rng.sample(slots, len(slots)):
        cast: list[Ent] = []
        while len(cast) < n:
            a = queue.pop() if queue else rng.choice(actors)
            if a not in cast:
                cast.append(a)
        w.facts["starring"] = cast
    # a few directors also act in films they did not direct
    for d in rng.sample(directors, 3):
        others = [f for f in works["FeatureFilm"] if f.facts["directedBy"][0] is not d and len(f.facts["starring"]) < 5]
        for f in rng.sample(others, rng.randint(1, 2)):
            f.facts["starring"].append(d)


def _credits(rng: random.Random, works: dict[str, list[Ent]], people: tuple[list[Ent], list[Ent]],
             companies: list[Ent], genres: tuple[list[Ent], list[Ent]], awards: list[Ent]) -> None:
    directors, actors = people
    every = [w for ws in works.values() for w in ws]
    _spread(rng, directors, every, "directedBy")
    _spread(rng, companies, every, "producedBy")
    fiction, docs = genres
    for w in every:
        pool = docs if w.cls == "Documentary" else fiction
        w.facts["hasGenre"] = rng.sample(pool, 1 if w.cls == "ShortFilm" else rng.choice([1, 1, 2]))
    _cast(rng, works, actors, directors)
    festival = [a for a in awards if a.cls == "FestivalPrize"]
    for cls, chance, most in (("FeatureFilm", 0.5, 2), ("Documentary", 0.35, 1), ("ShortFilm", 0.35, 1)):
        for f in works[cls]:
            if rng.random() < chance:
                pool = festival if cls == "ShortFilm" else awards
                f.facts["wonAward"] = rng.sample(pool, rng.randint(1, most))


def _years(rng: random.Random, every: list[Ent], people: list[Ent], companies: list[Ent], awards: list[Ent]) -> None:
    first: dict[str, int] = {}
    for w in every:
        linked = w.facts["directedBy"] + w.facts.get("starring", []) + w.facts["producedBy"]
        linked += w.facts.get("wonAward", [])
        for e in linked:
            first[e.key] = min(first.get(e.key, 9999), w.year())
    for p in people:
        gap = rng.randint(26, 44) if p.cls == "Director" else rng.randint(17, 40)
        p.facts["birthYear"] = [str(first[p.key] - gap)]
    for c in companies:
        c.facts["foundingYear"] = [str(first[c.key] - rng.randint(1, 30))]
    for a in awards:
        start = first[a.key] - rng.randint(0, 22) if a.key in first else rng.randint(1950, 1990)
        a.facts["firstAwarded"] = [str(start)]


def _build(rng: random.Random) -> dict[str, list[Ent]]:
    countries = [_ent("country", "Country", c) for c in COUNTRIES]
    fiction = [_ent("genre", "Genre", g) for g in FICTION_GENRES]
    docs = [_ent("genre", "Genre", g) for g in DOC_GENRES]
    awards = [_ent("award", cls, name) for name, cls in AWARDS]
    for a in awards:
        a.facts["heldIn"] = [rng.choice(countries)]
    words = rng.sample(COMPANY_WORDS, len(COMPANY_WORDS))
    companies = [_ent("company", "ProductionCompany", f"{w} {rng.choice(COMPANY_TAILS)}") for w in words]
    bases = rng.sample(countries, 6)  # companies cluster in a few countries
    for c in companies:
        c.facts["headquarteredIn"] = [rng.choice(bases)]
    directors, actors = _people(rng, countries)
    works = _works(rng)
    _credits(rng, works, (directors, actors), companies, (fiction, docs), awards)
    every = [w for ws in works.values() for w in ws]
    _years(rng, every, directors + actors, companies, awards)
    for w in every:  # inverse lists for person and company pages
        w.facts["directedBy"][0].facts.setdefault("directorOf", []).append(w)
        w.facts["producedBy"][0].extra.setdefault("produced", []).append(w)
        for a in w.facts.get("starring", []):
            if a.cls == "Actor":
                a.extra.setdefault("castIn", []).append(w)
    world = {"Country": countries, "Genre": fiction + docs, "Award": awards, "ProductionCompany": companies,
             "Director": directors, "Actor": actors}
    world.update(works)
    return world


# ---------------------------------------------------------------- Turtle
def _lit(text: str) -> str:
    return literal(text)


def _schema_ttl() -> str:
    out = [PREFIXES, f"<{NS[:-1]}> a owl:Ontology ;\n    rdfs:label \"Film archive ontology\" ;\n"
           "    rdfs:comment \"Screen works, the people and companies behind them, and their awards.\" .\n"]
    for name, parent, label, comment in CLASSES:
        sub = f"    rdfs:subClassOf fa:{parent} ;\n" if parent else ""
        out.append(f"fa:{name} a owl:Class ;\n{sub}    rdfs:label {_lit(label)} ;\n    rdfs:comment {_lit(comment)} .\n")
    for name, is_obj, dom, rng_, label, comment, inverse in PROPERTIES:
        out.append(property_ttl("fa", name, is_obj, dom, f"fa:{rng_}" if is_obj else f"xsd:{rng_}", label, comment,
                                inverse))
    return "\n".join(out)


def _gold_ttl(world: dict[str, list[Ent]]) -> str:
    out = [PREFIXES]
    for ents in world.values():
        for e in ents:
            lines = [f"fa:{e.key} a fa:{e.cls}", f"rdfs:label {_lit(e.label)}"]
            for prop, values in e.facts.items():
                if isinstance(values[0], Ent):
                    objs = ", ".join(f"fa:{v.key}" for v in values)
                else:
                    objs = ", ".join(f"{_lit(v)}^^xsd:{PROP_RANGE[prop]}" for v in values)
                lines.append(f"fa:{prop} {objs}")
            out.append(" ;\n    ".join(lines) + " .\n")
    return "\n".join(out)


# ---------------------------------------------------------------- page templates
# A sentence is kept only when the page's entity has every property it names.
PROSE = {
    "film": [
        ["{s} is {a_cw} directed by {directedBy} and produced by {producedBy}.",
         "Filed under {hasGenre}, it premiered on {releaseDate} and runs {runningTime} minutes.",
         "The production cost about {budget} million US dollars.",
         "Its cast is led by {starring}.",
         "The film went on to win {wonAward}."],
        ["Made by {directedBy} for the studio {producedBy}, {s} is {a_cw} that opened on {releaseDate}.",
         "Critics place it in {genre_phrase}; it lasts {runningTime} minutes and was shot for ${budget} million.",
         "The cast features {starring}.",
         "It was honoured with {wonAward}."],
        ["Released on {releaseDate}, {s} is {a_cw} of {runningTime} minutes from director {directedBy}.",
         "{producedBy} produced it on a budget of {budget} million dollars, and it is usually listed as {hasGenre}.",
         "It features {starring} on screen.",
         "Juries gave it {wonAward}."],
    ],
    "series": [
        ["{s} is {a_cw} directed by {directedBy} for {producedBy}.",
         "It first aired in {firstAired} and has run to {episodeCount} episodes.",
         "Billed as {hasGenre}, it stars {starring}."],
        ["First broadcast in {firstAired}, {s} comes from {producedBy} and is directed by {directedBy}.",
         "The show belongs to {genre_phrase} and now counts {episodeCount} episodes.",
         "{starring} play the main roles."],
        ["Over {episodeCount} episodes since {firstAired}, {s} has become a fixture of {hasGenre} television.",
         "{directedBy} directs it and {producedBy} produces it.",
         "The regular cast is {starring}."],
    ],
    "director": [
        ["{s} is a film director, born in {bornIn} in {birthYear}.", "{S} directed {directorOf}."],
        ["Born in {birthYear} in {bornIn}, {s} came to directing after years as an editor.",
         "{P} credits as director are {directorOf}."],
        ["{s}, a director from {bornIn}, was born in {birthYear}.", "Behind the camera, {short} has made {directorOf}.",
         "Critics often note {p} patient, observant style."],
    ],
    "actor": [
        ["{s} is an actor born in {birthYear} in {bornIn}.", "{S} has appeared in {castIn}."],
        ["Born in {bornIn} in {birthYear}, {s} began on the stage before moving to the screen.",
         "Audiences know {o} from {castIn}."],
        ["{s} is a performer from {bornIn}, born in {birthYear}.", "{P} screen work takes in {castIn}.",
         "{S} is regarded as one of the most versatile players of {p} generation."],
    ],
    "company": [
        ["{s} is a production company founded in {foundingYear} with its head office in {headquarteredIn}.",
         "Its catalogue consists of {produced}."],
        ["Established in {foundingYear}, {s} is based in {headquarteredIn}.", "The studio has produced {produced}."],
        ["{s} has made films and television from its base in {headquarteredIn} since {foundingYear}.",
         "The productions it backed are {produced}.", "It remains independently owned."],
    ],
    "award": [
        ["The {s} is {a_cw} presented each year in {heldIn}.", "It was first given in {firstAwarded}."],
        ["First handed out in {firstAwarded}, the {s} is {a_cw} whose ceremony takes place in {heldIn}.",
         "Its jury looks at new work from around the world."],
        ["The ceremony for the {s}, {a_cw}, is held in {heldIn}.", "The first winners were named in {firstAwarded}."],
    ],
}

NEWS = {
    "film": [
        ["The city archive will screen {s} on Saturday evening as part of its spring season.",
         "Directed by {directedBy} and released on {releaseDate}, the {cw} belongs to {genre_phrase}.",
         "Programmers said the {runningTime}-minute print, produced by {producedBy} on a budget of about "
         "{budget} million US dollars, has been newly restored.",
         "Cast members {starring} have been invited to attend.",
         "The film is best remembered for winning {wonAward}."],
        ["Tickets sold out within hours for an anniversary showing of {s}, organisers said on Monday.",
         "The {runningTime}-minute {cw} by {directedBy} first opened on {releaseDate}.",
         "{producedBy} financed it with about ${budget} million, and the evening's host called it a landmark of "
         "{hasGenre}.",
         "{starring} will join a discussion after the screening.",
         "It already counts {wonAward} among its prizes."],
    ],
    "series": [
        ["A new season of {s} has been confirmed, its broadcaster said this week.",
         "The series from {producedBy}, a work of {hasGenre}, first aired in {firstAired} and has reached "
         "{episodeCount} episodes.",
         "{directedBy}, who has directed it from the start, returns, as do {starring}."],
        ["Fans gathered on Sunday to mark another milestone for {s}.",
         "Since its debut in {firstAired} the show has aired {episodeCount} episodes.",
         "Produced by {producedBy} and directed by {directedBy}, it is counted among the best of {hasGenre} on "
         "television.",
         "Its leads, {starring}, cut a cake on stage."],
    ],
    "director": [
        ["{s} will be honoured with a retrospective at the archive next month.",
         "The season brings together {directorOf}, all directed by {o}.",
         "Born in {birthYear} in {bornIn}, {short} will introduce several of the screenings."],
        ["Director {s} spoke to film students on Thursday about a career behind the camera.",
         "{short}, who was born in {bornIn} in {birthYear}, has directed {directorOf}."],
    ],
    "actor": [
        ["{s} has joined the jury of this year's film week, organisers announced.",
         "The actor, born in {birthYear} in {bornIn}, has appeared in {castIn}."],
        ["A photo exhibition about {s} opens at the archive on Friday.",
         "Born in {bornIn} in {birthYear}, {short} is known to audiences from {castIn}.",
         "The show runs for six weeks."],
    ],
    "company": [
        ["{s} has announced a new slate of productions for next year.",
         "The company, founded in {foundingYear} and headquartered in {headquarteredIn}, is behind {produced}."],
        ["{s} opened a new editing suite on Tuesday.",
         "Based in {headquarteredIn} since it was set up in {foundingYear}, the studio produced {produced}."],
    ],
    "award": [
        ["The shortlist for the {s} was published this morning.",
         "The {cw}, first awarded in {firstAwarded}, will again be handed out in {heldIn}."],
        ["Organisers of the {s} have named a new jury.",
         "The ceremony takes place in {heldIn}, as it has since the prize began in {firstAwarded}."],
    ],
}

QA_INTRO = {"film": ("What is {s}?", "{s} is {a_cw}."), "series": ("What is {s}?", "{s} is {a_cw}."),
            "director": ("Who is {s}?", "{s} is {a_cw}."), "actor": ("Who is {s}?", "{s} is {a_cw}."),
            "company": ("What is {s}?", "{s} is {a_cw}."), "award": ("What is the {s}?", "The {s} is {a_cw}.")}
QA = {
    "directedBy": [("Who directed {s}?", "{directedBy} directed it."),
                   ("Who was the director?", "It was directed by {directedBy}.")],
    "producedBy": [("Which company produced it?", "{producedBy}."),
                   ("Who made it?", "It was made by the studio {producedBy}.")],
    "hasGenre": [("What kind of {cw} is it?", "It is usually classed as {hasGenre}."),
                 ("Which genre does it belong to?", "It belongs to {genre_phrase}.")],
    "releaseDate": [("When was it released?", "It came out on {releaseDate_iso}."),
                    ("What is its release date?", "{releaseDate_iso}.")],
    "runningTime": [("How long is it?", "It runs {runningTime} minutes."),
                    ("What is the running time?", "{runningTime} minutes.")],
    "budget": [("What did it cost to make?", "Roughly {budget} million US dollars."),
               ("How big was the budget?", "The budget was ${budget} million.")],
    "starring": [("Who is in the cast?", "{starring}."), ("Who stars in it?", "The cast includes {starring}.")],
    "wonAward": [("Did it win any awards?", "Yes, it won {wonAward}."),
                 ("Which prizes has it received?", "It received {wonAward}.")],
    "firstAired": [("When did it first air?", "It was first broadcast in {firstAired}."),
                   ("Since when has it been on air?", "Since {firstAired}.")],
    "episodeCount": [("How many episodes are there?", "There are {episodeCount} episodes."),
                     ("How long is the run?", "{episodeCount} episodes so far.")],
    "birthYear": [("When was {s_pr} born?", "In {birthYear}."),
                  ("What year was {s} born?", "{S} was born in {birthYear}.")],
    "bornIn": [("Where was {s_pr} born?", "{S} was born in {bornIn}."),
               ("Which country does {s_pr} come from?", "{bornIn}.")],
    "directorOf": [("What has {s_pr} directed?", "{directorOf}."),
                   ("Which works did {s_pr} direct?", "{S} directed {directorOf}.")],
    "castIn": [("Where can I see {o} on screen?", "{S} appears in {castIn}."),
               ("Which productions has {s_pr} acted in?", "{castIn}.")],
    "produced": [("What has the company produced?", "{produced}."),
                 ("Which titles come from this studio?", "Its productions are {produced}.")],
    "foundingYear": [("When was it founded?", "In {foundingYear}."),
                     ("How old is the company?", "It was set up in {foundingYear}.")],
    "headquarteredIn": [("Where is it based?", "Its headquarters are in {headquarteredIn}."),
                        ("In which country is the head office?", "{headquarteredIn}.")],
    "heldIn": [("Where is it awarded?", "The ceremony is held in {heldIn}."), ("Which country hosts it?", "{heldIn}.")],
    "firstAwarded": [("When was it first given?", "It was first handed out in {firstAwarded}."),
                     ("Since when has it existed?", "Since {firstAwarded}.")],
}
QA_FORMATS = ["Q: {q}\nA: {a}", "{q}\n{a}\n", "Question: {q}\nAnswer: {a}"]
QA_HEADERS = ["{label}: questions and answers", "Frequently asked about {label}", "{label} - Q&A"]

FIELD_LABELS = {
    "directedBy": ["Director", "Directed by", "Helmed by"],
    "producedBy": ["Production company", "Studio", "Produced by"],
    "starring": ["Cast", "Starring", "Main cast"],
    "hasGenre": ["Genre", "Genres", "Category"],
    "releaseDate": ["Release date", "Premiere", "First shown"],
    "runningTime": ["Running time", "Length", "Duration"],
    "budget": ["Budget", "Production budget", "Cost"],
    "wonAward": ["Awards", "Prizes won", "Honours"],
    "firstAired": ["First aired", "Debut year", "On air since"],
    "episodeCount": ["Episodes", "Number of episodes", "Episode count"],
    "birthYear": ["Born", "Year of birth", "Birth year"],
    "bornIn": ["Country of birth", "Birthplace", "Native country"],
    "directorOf": ["Films directed", "Directing credits", "Filmography as director"],
    "castIn": ["Appears in", "Screen credits", "Acting credits"],
    "produced": ["Productions", "Titles produced", "Catalogue"],
    "foundingYear": ["Founded", "Established", "Year founded"],
    "headquarteredIn": ["Headquarters", "Based in", "Head office"],
    "heldIn": ["Host country", "Held in", "Ceremony location"],
    "firstAwarded": ["First awarded", "Awarded since", "Inaugurated"],
}
FIELD_HEADERS = ["{label}", "{label} - {cw} record", "Archive card: {label}"]
TYPE_LABELS = ["Type", "Entry type", "Kind of record"]
MIXED_HEADERS = ["Key facts", "At a glance", "Details"]
LAYOUTS = ["fields", "prose", "news", "qa", "mixed"]


# ---------------------------------------------------------------- pages
def _ctx(e: Ent) -> dict[str, str]:
    """Everything a template may name, written the way prose writes it."""
    subj, obj, poss = {"f": ("she", "her", "her"), "m": ("he", "him", "his"), "n": ("it", "it", "its")}[e.gender]
    cw = CLASS_WORD[e.cls]
    ctx = {"s": e.label, "S": subj.capitalize(), "s_pr": subj, "o": obj, "p": poss, "P": poss.capitalize(),
           "cw": cw, "a_cw": ("an " if cw[0] in "aeiou" else "a ") + cw,
           "short": e.label.split()[-1] if e.cls in ("Director", "Actor") else e.label}
    for prop in KIND_PROPS[PAGE_KIND[e.cls]]:
        vals = e.get(prop)
        if not vals:
            continue
        if isinstance(vals[0], Ent):
            labels = [("the " if prop == "wonAward" else "") + v.label for v in vals]
            ctx[prop] = _join(labels)
        elif prop == "releaseDate":
            year, month, day = vals[0].split("-")
            ctx[prop] = f"{int(day)} {MONTHS[int(month) - 1]} {year}"
            ctx["releaseDate_iso"] = vals[0]
        else:
            ctx[prop] = vals[0]
    if "hasGenre" in ctx:
        ctx["genre_phrase"] = f"the {ctx['hasGenre']} genre" + ("s" if len(e.get("hasGenre")) > 1 else "")
    return ctx


def _needs(template: str) -> set[str]:
    names = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return {DERIVED.get(n, n) for n in names if DERIVED.get(n, n) in PROP_RANGE or n in EXTRAS}


def _render(templates: list[str], ctx: dict[str, str], present: set[str]) -> list[tuple[str, set[str]]]:
    out = []
    for t in templates:
        needs = _needs(t)
        if needs <= present:
            out.append((t.format(**ctx), needs))
    return out


def _field_lines(rng: random.Random, e: Ent, props: list[str]) -> list[str]:
    bullets = rng.random() < 0.5
    out = []
    for prop in props:
        label, vals = rng.choice(FIELD_LABELS[prop]), e.get(prop)
        if isinstance(vals[0], Ent):
            texts = [v.label for v in vals]
        elif prop == "runningTime":
            texts = [rng.choice(["{} min", "{} minutes"]).format(vals[0])]
        elif prop == "budget":
            texts = [rng.choice(["${} million", "{} million USD", "US$ {} million"]).format(vals[0])]
        else:
            texts = list(vals)
        if len(texts) > 1 and bullets:
            out += [f"{label}:"] + [f"- {t}" for t in texts]
        else:
            out.append(f"{label}: {', '.join(texts)}")
    return out


def _page_text(rng: random.Random, e: Ent, layout: str) -> str:
    kind = PAGE_KIND[e.cls]
    props = [p for p in KIND_PROPS[kind] if e.get(p)]
    ctx = _ctx(e)
    if layout == "fields":
        head = rng.choice(FIELD_HEADERS).format(label=e.label, cw=ctx["cw"])
        return "\n".join([head, f"{rng.choice(TYPE_LABELS)}: {ctx['cw']}"] + _field_lines(rng, e, props))
    if layout == "qa":
        pairs = [QA_INTRO[kind]] + [rng.choice(QA[p]) for p in props]
        fmt = rng.choice(QA_FORMATS)
        body = [fmt.format(q=q.format(**ctx), a=a.format(**ctx)) for q, a in pairs]
        return rng.choice(QA_HEADERS).format(label=e.label) + "\n\n" + "\n".join(body).strip()
    templates = rng.choice(NEWS[kind] if layout == "news" else PROSE[kind])
    done = _render(templates, ctx, set(props))
    if layout == "mixed":
        done = done[:rng.choice([1, 2])]
    covered = set().union(*(needs for _, needs in done))
    text = " ".join(s[0].upper() + s[1:] for s, _ in done)
    if layout != "mixed":
        assert covered == set(props), (e.label, layout, set(props) - covered)
        return text
    rest = [p for p in props if p not in covered] or props[-1:]
    return text + "\n\n" + rng.choice(MIXED_HEADERS) + "\n" + "\n".join(_field_lines(rng, e, rest))


def _pages(rng: random.Random, world: dict[str, list[Ent]]) -> list[dict]:
    prefix = {"film": "film", "series": "series", "director": "person", "actor": "person", "company": "company",
              "award": "award"}
    pages = []
    for cls, ents in world.items():
        if cls not in PAGE_KIND:
            continue
        for e in ents:
            layout = rng.choice(LAYOUTS)
            pages.append({"id": f"{prefix[PAGE_KIND[e.cls]]}-{_slug(e.label, '-')}", "title": e.label,
                          "text": _page_text(rng, e, layout), "about": NS + e.key, "layout": layout})
    return pages


# ---------------------------------------------------------------- questions
def _labs(ents: list[Ent]):
    return lambda e, ans: [x.label for x in ents]


def _lits(ents: list[Ent], prop: str):
    return lambda e, ans: sorted({x.facts[prop][0] for x in ents if prop in x.facts})


def _near(e: Ent, ans: list[str]) -> list[str]:
    n = int(ans[0])
    return [str(n + d) for d in (-3, -2, -1, 1, 2, 3, 4, 5) if n + d >= 0]


def _near_year(e: Ent, ans: list[str]) -> list[str]:
    return [str(int(ans[0]) + d) for d in (-9, -6, -4, -2, -1, 1, 2, 3, 5, 7, 10)]


def _from(rng: random.Random, subjects: list[Ent], templates: list[str], get, pool, multi: bool = False,
          lo: int = 1, hi: int = 6) -> list[dict]:
    """Candidate questions: one per subject whose answer list (from `get`) has lo..hi items."""
    out = []
    for e in rng.sample(subjects, len(subjects)):
        ans = get(e)
        if not ans or not lo <= len(ans) <= hi:
            continue
        out.append({"q": rng.choice(templates).format(x=e.label), "ans": ans, "pool": pool(e, ans), "multi": multi})
    return out


def _one(prop: str, then: str | None = None):
    """The label or literal of `prop` (followed by `then` on the linked entity)."""
    def get(e: Ent) -> list[str] | None:
        vals = e.facts.get(prop, [])
        if len(vals) != 1:
            return None
        v = vals[0]
        if then is not None:
            v = v.facts[then][0]
        return [v.label if isinstance(v, Ent) else v]
    return get


def _mixed_classes(ents: list[Ent]) -> list[str] | None:
    return [e.label for e in ents] if len({e.cls for e in ents}) >= 2 else None


def _q_simple(rng: random.Random, v: dict[str, list[Ent]], iso: set[str]) -> dict[str, list[list[dict]]]:
    films, works, persons = v["films"], v["works"], v["persons"]
    cos, countries, awards, series = v["ProductionCompany"], v["Country"], v["Award"], v["Series"]
    ctry = _labs(countries)
    return {
        "attribute": [
            _from(rng, films, ["What is the running time of {x} in minutes?", "How many minutes does {x} run?",
                               "{x} runs for how many minutes?"], _one("runningTime"), _lits(films, "runningTime")),
            _from(rng, films, ["What was the budget of {x}, in millions of US dollars?",
                               "How much did {x} cost to make, in millions of US dollars?",
                               "In millions of US dollars, what did {x} cost to produce?"],
                  _one("budget"), _lits(films, "budget")),
            _from(rng, series, ["How many episodes does {x} have?", "What is the episode count of {x}?",
                                "{x} has how many episodes?"], _one("episodeCount"), _near)],
        "relation": [
            _from(rng, works, ["Who directed {x}?", "{x} was directed by whom?", "Name the director of {x}."],
                  _one("directedBy"), _labs(v["Director"])),
            _from(rng, works, ["Which company produced {x}?", "{x} was produced by which company?",
                               "Name the production company behind {x}."], _one("producedBy"), _labs(cos)),
            _from(rng, persons, ["In which country was {x} born?", "{x} was born in which country?",
                                 "Name the country where {x} was born."], _one("bornIn"), ctry),
            _from(rng, cos, ["In which country is {x} headquartered?", "{x} is headquartered in which country?"],
                  _one("headquarteredIn"), ctry),
            _from(rng, awards, ["In which country is the {x} held?", "The {x} is held in which country?"],
                  _one("heldIn"), ctry)],
        "two_hop": [
            _from(rng, works, ["In which country is the company that produced {x} headquartered?",
                               "Where is the studio behind {x} headquartered?",
                               "The producer of {x} is headquartered in which country?"],
                  _one("producedBy", "headquarteredIn"), ctry),
            _from(rng, works, ["In which year was the director of {x} born?", "When was the person who directed {x} born?",
                               "The director of {x} was born in what year?"], _one("directedBy", "birthYear"), _near_year),
            _from(rng, works, ["In which country was the director of {x} born?", "Where was the director of {x} born?",
                               "Which country does the director of {x} come from?"], _one("directedBy", "bornIn"), ctry),
            _from(rng, films, ["In which country is the award won by {x} held?",
                               "Where is the ceremony of the prize that {x} won held?"], _one("wonAward", "heldIn"), ctry),
            _from(rng, works, ["When was the company that produced {x} founded?",
                               "In which year was the studio behind {x} founded?"],
                  _one("producedBy", "foundingYear"), _near_year)],
        "date": [
            _from(rng, [f for f in films if f.key in iso], ["When was {x} released?", "On what date did {x} come out?",
                                                            "What is the release date of {x}?"],
                  _one("releaseDate"), _lits(films, "releaseDate")),
            _from(rng, persons, ["In which year was {x} born?", "What year was {x} born?", "When was {x} born?"],
                  _one("birthYear"), _near_year),
            _from(rng, cos, ["When was {x} founded?", "In what year was {x} set up?", "{x} was founded in which year?"],
                  _one("foundingYear"), _near_year),
            _from(rng, series, ["In which year did {x} first air?", "When did {x} start airing?"],
                  _one("firstAired"), _near_year),
            _from(rng, awards, ["Since what year has the {x} been awarded?", "When was the {x} first presented?"],
                  _one("firstAwarded"), _near_year)],
    }


def _q_lists(rng: random.Random, v: dict[str, list[Ent]]) -> dict[str, list[list[dict]]]:
    films, works, persons, actors = v["films"], v["works"], v["persons"], v["Actor"]
    cos, countries, awards, directors = v["ProductionCompany"], v["Country"], v["Award"], v["Director"]
    film_set = set(map(id, films))
    born = lambda group: (lambda k: [p.label for p in group if p.facts["bornIn"][0] is k])
    count = lambda prop: (lambda e: [str(len(e.get(prop)))] if e.get(prop) else None)
    return {
        "inverse_list": [
            _from(rng, countries, ["Which production companies are headquartered in {x}?",
                                   "Name every production company based in {x}.",
                                   "{x} is home to which production companies?"],
                  lambda k: [c.label for c in cos if c.facts["headquarteredIn"][0] is k], _labs(cos), True, 2),
            _from(rng, countries, ["Which actors were born in {x}?", "Name all the actors born in {x}.",
                                   "{x} is the birthplace of which actors?"], born(actors), _labs(actors), True, 2),
            _from(rng, actors, ["Which titles feature {x}?", "In which productions does {x} appear?",
                                "List every work {x} acted in."],
                  lambda a: [w.label for w in a.get("castIn")], _labs(works), True, 2, 5),
            _from(rng, awards, ["Which films won the {x}?", "Name every film that received the {x}.",
                                "The {x} went to which films?"],
                  lambda a: [f.label for f in films if a in f.facts.get("wonAward", [])], _labs(films), True, 2)],
        "subclass_list": [
            _from(rng, cos, ["Which films did {x} produce?", "List the films made by {x}.",
                             "Name every film produced by {x}."],
                  lambda c: _mixed_classes([w for w in c.get("produced") if id(w) in film_set]), _labs(films), True, 2),
            _from(rng, countries, ["Which people in the archive were born in {x}?", "Name every person born in {x}.",
                                   "Who, among everyone in the archive, was born in {x}?"],
                  lambda k: _mixed_classes([p for p in persons if p.facts["bornIn"][0] is k]), _labs(persons), True, 2),
            _from(rng, directors, ["Which films did {x} direct?", "Name every film directed by {x}.",
                                   "{x} directed which films?"],
                  lambda d: _mixed_classes([w for w in d.get("directorOf") if id(w) in film_set]), _labs(films),
                  True, 2),
            _from(rng, directors, ["Which works, films or series, did {x} direct?", "List every work directed by {x}."],
                  lambda d: _mixed_classes(d.get("directorOf")) if any(w.cls == "Series" for w in d.get("directorOf"))
                  else None, _labs(works), True, 2)],
        "count": [
            _from(rng, works, ["How many cast members does {x} have?", "How many performers are credited on {x}?",
                               "{x} credits how many performers?"], count("starring"), _near),
            _from(rng, directors, ["How many works has {x} directed?", "How many titles did {x} direct?",
                                   "{x} directed how many works?"], count("directorOf"), _near),
            _from(rng, cos, ["How many works has {x} produced?", "How many titles did {x} produce?",
                             "{x} is credited with producing how many works?"], count("produced"), _near),
            _from(rng, works, ["How many genres is {x} listed under?", "Under how many genres is {x} filed?"],
                  count("hasGenre"), _near),
            _from(rng, films, ["How many awards did {x} win?", "{x} won how many prizes?"], count("wonAward"), _near)],
    }


def _q_phrase(rng: random.Random, v: dict[str, list[Ent]]) -> list[list[dict]]:
    """Questions that name a property by words of its rdfs:label rather than its local name."""
    films, works, persons, cos = v["films"], v["works"], v["persons"], v["ProductionCompany"]
    ctry = _labs(v["Country"])
    many = lambda prop: (lambda e: [x.label for x in e.get(prop)])
    return [
        _from(rng, films, ["What is the length in minutes of {x}?", "Give the length of {x} in minutes."],
              _one("runningTime"), _lits(films, "runningTime")),
        _from(rng, works, ["Which studio made {x}?", "{x} was made by which studio?"], _one("producedBy"), _labs(cos)),
        _from(rng, persons, ["What is the country of birth of {x}?", "Give the country of birth of {x}."],
              _one("bornIn"), ctry),
        _from(rng, cos, ["In which country does {x} have its head office?", "Where does {x} have its head office?"],
              _one("headquarteredIn"), ctry),
        _from(rng, v["Award"], ["In which country does the {x} take place?", "Where does the {x} take place?"],
              _one("heldIn"), ctry),
        _from(rng, v["Series"], ["What is the year of first broadcast of {x}?"], _one("firstAired"), _near_year),
        _from(rng, v["Award"], ["In which year was the {x} first handed out?"], _one("firstAwarded"), _near_year),
        _from(rng, works, ["Whom does {x} have in its cast?", "Who does {x} have in its cast?"], many("starring"),
              _labs(persons), True, 2, 5),
        _from(rng, v["Director"], ["Which titles has {x} helmed?", "What has {x} helmed?"], many("directorOf"),
              _labs(works), True, 2, 5),
        _from(rng, films, ["Which prize did {x} pick up?"], _one("wonAward"), _labs(v["Award"])),
        _from(rng, films, ["What was the production budget of {x}, in millions of US dollars?"], _one("budget"),
              _lits(films, "budget")),
        _from(rng, persons, ["What is the year of birth of {x}?"], _one("birthYear"), _near_year),
        _from(rng, v["Series"], ["What is the number of episodes of {x}?"], _one("episodeCount"), _near),
        _from(rng, works, ["Under which genre is {x} classed?"], _one("hasGenre"), _labs(v["Genre"])),
    ]


def _interleave(sources: list[list[dict]]) -> list[dict]:
    out, seen = [], set()
    iters = [iter(s) for s in sources]
    while iters:
        for it in list(iters):
            c = next(it, None)
            if c is None:
                iters.remove(it)
            elif c["q"] not in seen:
                seen.add(c["q"])
                out.append(c)
    return out


def _with_options(rng: random.Random, c: dict) -> dict:
    right = list(dict.fromkeys(c["ans"]))
    wrong = [x for x in dict.fromkeys(c["pool"]) if x not in right]
    total = min(8, max(4, len(right) + rng.randint(2, 4)))
    options = right + rng.sample(wrong, min(len(wrong), total - len(right)))
    rng.shuffle(options)
    assert 4 <= len(options) <= 8, c
    return {"type": "MAQ" if c["multi"] else "MCQ", "question": c["q"], "options": options,
            "answers": sorted(options.index(r) for r in right)}


def _questions(rng: random.Random, world: dict[str, list[Ent]], iso: set[str], per: int = 12) -> list[dict]:
    v = dict(world)
    v["films"] = world["FeatureFilm"] + world["Documentary"] + world["ShortFilm"]
    v["works"] = v["films"] + world["Series"]
    v["persons"] = world["Director"] + world["Actor"]
    kinds = _q_simple(rng, v, iso) | _q_lists(rng, v)
    kinds["phrase_property"] = _q_phrase(rng, v)
    out: list[dict] = []
    for kind, sources in kinds.items():
        cands = _interleave(sources)
        assert len(cands) >= 2 * per, (kind, len(cands))
        for c in cands[:per]:
            out.append({"kind": kind, "type": "open", "question": c["q"],
                        "answer": c["ans"] if c["multi"] else c["ans"][0]})
        for c in cands[per:2 * per]:
            out.append({"kind": kind} | _with_options(rng, c))
    return [{"id": f"films-q{i:03d}"} | q for i, q in enumerate(out, 1)]


def generate(seed: int = 7) -> DomainData:
    rng = random.Random(seed)
    world = _build(rng)
    pages = _pages(rng, world)
    text = {p["about"]: p["text"] for p in pages}
    iso = {e.key for e in world["FeatureFilm"] + world["Documentary"] + world["ShortFilm"]
           if e.facts["releaseDate"][0] in text[NS + e.key]}
    questions = _questions(rng, world, iso)
    return DomainData("films", _schema_ttl(), _gold_ttl(world), pages, questions)
