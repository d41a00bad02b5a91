"""Held-out development domain for analytical questions: a county library network.

Branches in towns of three counties, each with a floor area in square metres, a number of seats, an
opening date and, for most, a manager; items held at branches (books — some of them graphic novels —
audiobooks, films on DVD, magazines) with page counts, running times in minutes, replacement costs in
euros (not recorded for every item) and years of publication; authors of a nationality, publishers in
cities of countries, book series; staff (librarians and library assistants) who report to other staff;
members registered at a branch who pay a yearly fee; loans of an item to a member, with the date it
went out, the date it is due and, once back, the date it was returned.

It is held out: the planner was not developed on this schema or on `library_questions`' wordings, so
its score measures how far the planner generalises. The property names mix camelCase and snake_case
on purpose, as real schemas do. `build(seed)` makes the instances from the seed alone; `schema_ttl`
and `instances_ttl` write them; gold rows are computed from these records (see `library_questions`).
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from benchmarks.domains import literal, property_ttl

NS = "http://example.org/libraries#"
PREFIXES = (f"@prefix lib: <{NS}> .\n"
            "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
            "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\n")

# (local name, parent, label, comment)
CLASSES = [
    ("Item", None, "library item", "Anything a member can borrow: one physical copy, kept at one branch."),
    ("Book", "Item", "book", "A printed book."),
    ("GraphicNovel", "Book", "graphic novel", "A book told in comic-strip form."),
    ("Audiobook", "Item", "audiobook", "A recording of a book read aloud, on CD."),
    ("Film", "Item", "film (DVD)", "A feature film or documentary on DVD."),
    ("Magazine", "Item", "magazine", "A periodical the library subscribes to; back issues can be borrowed."),
    ("Series", None, "book series", "Books by one author that are meant to be read in order."),
    ("Author", None, "author", "A writer of books or audiobooks in the collection."),
    ("Publisher", None, "publisher", "A firm that publishes books, recordings or periodicals."),
    ("City", None, "city", "A city where a publisher has its head office."),
    ("Country", None, "country", "A sovereign country."),
    ("Branch", None, "library branch", "One of the network's public libraries."),
    ("Town", None, "town", "A town in the area the network serves."),
    ("County", None, "county", "A county whose council funds the network."),
    ("Member", None, "library member", "A person holding a library card."),
    ("StaffMember", None, "staff member", "A person employed by the library network."),
    ("Librarian", "StaffMember", "librarian", "A qualified librarian."),
    ("Assistant", "StaffMember", "library assistant", "A member of staff on the desk and the shelves."),
    ("Loan", None, "loan", "One lending of one item to one member."),
]

# (local name, object?, domain, range, label, comment)
PROPS = [
    ("heldAt", True, "Item", "Branch", "held at", "The branch whose shelves the item belongs to."),
    ("writtenBy", True, "Item", "Author", "written by", "The author of the book, or of the book a recording reads."),
    ("publishedBy", True, "Item", "Publisher", "published by", "The firm that published the item."),
    ("partOfSeries", True, "Book", "Series", "part of series", "The series the book belongs to, if any."),
    ("nationality", True, "Author", "Country", "nationality", "The country the author is a citizen of."),
    ("based_in", True, "Publisher", "City", "based in", "The city of the publisher's head office."),
    ("in_country", True, "City", "Country", "in country", "The country the city lies in."),
    ("inTown", True, "Branch", "Town", "located in town", "The town the branch is in."),
    ("in_county", True, "Town", "County", "in county", "The county the town belongs to."),
    ("managedBy", True, "Branch", "StaffMember", "managed by",
     "The staff member in charge of the branch; small branches may have none and are run from head office."),
    ("worksAt", True, "StaffMember", "Branch", "works at", "The branch the staff member is based at."),
    ("reportsTo", True, "StaffMember", "StaffMember", "reports to", "The staff member's line manager."),
    ("registeredAt", True, "Member", "Branch", "home branch", "The branch where the member joined."),
    ("borrowedBy", True, "Loan", "Member", "borrowed by", "The member who took the item out."),
    ("loanedItem", True, "Loan", "Item", "item lent", "The item that went out on the loan."),
    ("pageCount", False, "Book", "xsd:integer", "number of pages", "How many pages the book has."),
    ("runningTime", False, "Item", "xsd:integer", "running time", "The length of a film or recording, in minutes."),
    ("replacement_cost", False, "Item", "xsd:decimal", "replacement cost",
     "What replacing the item costs if it is lost or damaged, in euros; not recorded for every item."),
    ("publicationYear", False, "Item", "xsd:gYear", "year of publication", "The year the item was published or released."),
    ("isbn", False, "Book", "xsd:string", "ISBN", "The book's 13-digit International Standard Book Number."),
    ("genre", False, "Item", "xsd:string", "genre", "The kind of story or subject, as shelved."),
    ("language", False, "Item", "xsd:string", "language", "The language the item is written or spoken in."),
    ("volumeNumber", False, "Book", "xsd:integer", "number in series", "The book's place in its series."),
    ("narrator", False, "Audiobook", "xsd:string", "read by", "The person who reads the recording."),
    ("director", False, "Film", "xsd:string", "directed by", "The film's director."),
    ("age_rating", False, "Film", "xsd:string", "age rating", "The film's certificate: G, PG, 12, 15 or 18."),
    ("issuesPerYear", False, "Magazine", "xsd:integer", "issues per year", "How often the magazine comes out."),
    ("birthYear", False, "Author", "xsd:integer", "year of birth", "The year the author was born."),
    ("founded_year", False, "Publisher", "xsd:integer", "year founded", "The year the publisher was set up."),
    ("openingDate", False, "Branch", "xsd:date", "opening date", "The day the branch first opened to the public."),
    ("floor_area", False, "Branch", "xsd:decimal", "floor area", "The public floor space, in square metres."),
    ("seatCount", False, "Branch", "xsd:integer", "number of seats", "Reading and study seats open to the public."),
    ("weekly_hours", False, "Branch", "xsd:integer", "opening hours per week", "Hours the branch is open in a week."),
    ("population", False, "Town", "xsd:integer", "population", "Residents at the last census."),
    ("email", False, "StaffMember", "xsd:string", "e-mail address", "The staff member's work e-mail."),
    ("phone", False, "StaffMember", "xsd:string", "phone number", "A direct line; not every staff member has one."),
    ("hire_date", False, "StaffMember", "xsd:date", "date hired", "The day the staff member started."),
    ("joinDate", False, "Member", "xsd:date", "date joined", "The day the member got a library card."),
    ("membership_fee", False, "Member", "xsd:decimal", "annual membership fee",
     "What the member pays each year, in euros; juniors and some seniors pay nothing."),
    ("member_type", False, "Member", "xsd:string", "membership type", "adult, student, senior or junior."),
    ("loanDate", False, "Loan", "xsd:date", "date borrowed", "The day the item went out."),
    ("dueDate", False, "Loan", "xsd:date", "due date", "The day the item is due back (three weeks after it went out)."),
    ("return_date", False, "Loan", "xsd:date", "date returned", "The day the item came back; none while it is out."),
]
TYPES = {p[0]: p[3] for p in PROPS if not p[1]}

COUNTRIES = ["Ireland", "United Kingdom", "France", "Portugal", "Nigeria", "Canada", "Germany", "Spain", "Brazil",
             "Japan"]
CITIES = [("Dublin", "Ireland"), ("Cork", "Ireland"), ("London", "United Kingdom"), ("Edinburgh", "United Kingdom"),
          ("Paris", "France"), ("Lisbon", "Portugal"), ("Lagos", "Nigeria"), ("Toronto", "Canada"), ("Tokyo", "Japan")]
# (name, city, founded)
PUBLISHERS = [("Liffey Press", "Dublin", 1948), ("Lee Valley Books", "Cork", 2012), ("Halfpenny Books", "London", 1921),
              ("Soundstage Audio", "London", 2001), ("Thistle & Quay", "Edinburgh", 1987),
              ("Éditions du Pont", "Paris", 1935), ("Tejo Editora", "Lisbon", 1974), ("Cowrie House", "Lagos", 2006),
              ("Northlight Publishing", "Toronto", 1962), ("Kumo Comics", "Tokyo", 1979),
              ("Harbour Media", "Dublin", 1995)]
COUNTIES = {"Ardmore": ["Ashford", "Ballincar", "Eskerbridge"], "Glenvale": ["Corran", "Dunmore"],
            "Moyne": ["Kilmeen", "Rathbeg"]}
# (label, town, has a manager, weight of the collection held there)
BRANCHES = [("Ashford Central Library", "Ashford", True, 7), ("Riverside Library", "Ashford", True, 4),
            ("Ballincar Library", "Ballincar", True, 3), ("Harbour Road Library", "Corran", True, 4),
            ("Market Square Library", "Corran", False, 2), ("Dunmore Library", "Dunmore", True, 3),
            ("Kilmeen Library", "Kilmeen", True, 3), ("Rathbeg Library", "Rathbeg", False, 1)]
# (first, last, nationality, year of birth)
AUTHORS = [("Niamh", "Tolland", "Ireland", 1971), ("Ciarán", "Mulcahy", "Ireland", 1958),
           ("Aoife", "Brennan", "Ireland", 1984), ("Declan", "Furlong", "Ireland", 1949),
           ("Eamon", "Daly", "Ireland", 1932), ("Harriet", "Bellamy", "United Kingdom", 1966),
           ("Rupert", "Ashcombe", "United Kingdom", 1939), ("Priya", "Lal", "United Kingdom", 1988),
           ("Gordon", "McCrae", "United Kingdom", 1955), ("Fiona", "Garside", "United Kingdom", 1993),
           ("Sylvie", "Aubertin", "France", 1962), ("Julien", "Marchetti", "France", 1977),
           ("Inês", "Carvalho", "Portugal", 1969), ("Tiago", "Barros", "Portugal", 1981),
           ("Chinwe", "Adebayo", "Nigeria", 1975), ("Tunde", "Okonjo", "Nigeria", 1990),
           ("Marguerite", "Lavoie", "Canada", 1947), ("Dale", "Kowalchuk", "Canada", 1960),
           ("Anke", "Vogel", "Germany", 1972), ("Matthias", "Reinholt", "Germany", 1953),
           ("Lucía", "Ortega", "Spain", 1986), ("Álvaro", "Sanz", "Spain", 1965),
           ("Renata", "Queiroz", "Brazil", 1979)]
NATIVE = {"France": "French", "Portugal": "Portuguese", "Germany": "German", "Spain": "Spanish", "Brazil": "Portuguese"}
FICTION = ["crime", "fantasy", "historical fiction", "science fiction", "romance"]
STANDALONE = [
    "The Salt Orchard", "A Winter in Lisbon", "The Glass Ferryman", "Bog Cotton", "The Cartographer's Daughter",
    "Nine Bridges", "The Quiet Lighthouse", "Under the Hawthorn", "The Long Field", "Saltwater Hymns",
    "The Borrowed Coat", "Lanterns on the Shannon", "The Heron's Wife", "A House of Letters", "The Northern Crossing",
    "Silver Tide", "The Last Ferry to Inishbeg", "Harvest of Stones", "The Mapmaker's Silence", "Small Hours",
    "Red Earth, Blue Sky", "The Weaver of Kano", "Rain on Tin Roofs", "The Drowned Parish", "Paper Boats",
    "The Orchard Keeper's Ledger", "Midsummer at the Quarry", "The Unquiet Hollow", "City of Bells", "Ash and Amber",
    "The Seventh Signal", "A Fistful of Rivets", "The Iron Orchard", "The Stranger at Slievemore",
    "Beneath the Cork Trees", "The Blue Notebook", "Winter Swimmers", "The Pilgrim Road", "Embers of Durrow",
    "The Clockmaker's Apprentice"]
NONFICTION = {"biography": ["A Life Between Tides", "Marie Curie: A Restless Mind", "The Singing Postman",
                            "Letters from Lagos"],
              "cookery": ["Soup for Every Season", "One Pan Suppers", "The Irish Baker", "Grow, Cook, Eat",
                          "Fish on Friday"],
              "travel": ["Walking the Wild Atlantic Way", "Lisbon on Foot", "Slow Trains of Europe",
                         "The Camino in Winter"],
              "history": ["The Famine Roads", "Castles of Leinster", "A Short History of the Bicycle",
                          "Shipwrecks of the South Coast"]}
# series → (author surname, genre, publisher, graphic novels?, titles in order)
SERIES = {"The Corran Mysteries": ("Tolland", "crime", "Liffey Press", False,
                                   ["Low Water", "The Ninth Bell", "A Grave at Kilnamona", "The Harbourmaster's Lie"]),
          "Ashes of Eldmoor": ("Lal", "fantasy", "Halfpenny Books", False,
                               ["The Ember Throne", "Crown of Cinders", "The Ashen Queen"]),
          "The Lisbon Quartet": ("Carvalho", "historical fiction", "Tejo Editora", False,
                                 ["The Tiled Staircase", "The Earthquake Bells", "Fado for the Dead", "The Last Caravel"]),
          "Starfall Chronicles": ("Okonjo", "science fiction", "Cowrie House", False,
                                  ["Starfall", "Orbit of Ash", "The Lagos Array"]),
          "Moonlit Detectives": ("Marchetti", "mystery", "Kumo Comics", True,
                                 ["The Moth Case", "The Paper Lantern Case", "The Velvet Case"])}
GRAPHIC = [("Bog Bodies", "Kowalchuk", "horror"), ("Gutter Saints", "Kowalchuk", "adventure")]
AUDIOBOOKS = ["The Whispering Glen", "Stormbound", "A Song for Achill", "The Gentle Art of Rest",
              "Tales from the Burren", "Night Train to Porto", "The Apiarist", "Cold Harbour", "The Hundred Kitchens",
              "Fireside Stories", "The Marsh King", "Between the Lines", "The Kindness of Rooks", "Dawn Chorus",
              "Long Way Round", "A Year in the Garden", "The Memory Tree", "Lost Letters", "Rivers of the West",
              "The Lamplighter"]
NARRATORS = ["Fiona Shaw-Keating", "Barry Lennon", "Adjoa Mensah", "Colm Reddy", "Imelda Kane", "Oliver Strand"]
FILMS = ["Harbour Lights", "Midnight Ferry", "The Burren Job", "Kingfisher", "The Last Post", "Island of Glass",
         "The Night Watchman", "Paper Moons", "The Quiet Hours", "Second Chances", "Storm Chasers", "Wolfhound",
         "The Velvet Hour", "A Fine Rain", "Tidewater", "Brass Neck", "The Summer House", "Goodnight, Inspector",
         "Copper Sky", "Tall Tales", "Red Kite", "Snow on the Curragh", "Dancing at the Crossroads",
         "The Pilot's Wife", "Grey Gulls", "The Hurling Season", "Atlantic Drift", "Moth and Flame"]
FILM_GENRES = ["drama", "comedy", "thriller", "documentary", "animation", "family"]
DIRECTORS = ["Ruth Callaghan", "Pierre Landry", "Sam Odukoya", "Maura Finnegan", "Hugo Brandt", "Ana Ribeiro",
             "Tom Ellery"]
MAGAZINES = [("Garden Monthly", 12), ("The Irish Angler", 12), ("Coastal Living", 6), ("Young Scientist", 12),
             ("Knit and Stitch", 12), ("Heritage Today", 4), ("Cycling Weekly Review", 52), ("Homes & Interiors", 12),
             ("Wild Ireland", 4), ("Puzzle Time", 52)]
# staff: (first, last, gender); the first is the county librarian, the next five manage branches
STAFF = [("Helen", "Doyle", "F"), ("Adaeze", "Okafor", "F"), ("Brendan", "Byrne", "M"), ("Marek", "Zielinski", "M"),
         ("Orla", "Fitzgerald", "F"), ("Patrick", "Nolan", "M"), ("Siobhan", "Keane", "F"), ("Gráinne", "Walsh", "F"),
         ("Tomasz", "Lewandowski", "M"), ("Conor", "Madden", "M"), ("Aisling", "Ryan", "F"), ("Dermot", "Quinlan", "M"),
         ("Fatima", "Rahman", "F"), ("Liam", "Carey", "M"), ("Róisín", "Hegarty", "F"), ("Kevin", "Duggan", "M"),
         ("Maeve", "Sheridan", "F"), ("Seán", "Tierney", "M"), ("Nuala", "Kinsella", "F"), ("Ultan", "Moran", "M"),
         ("Bridget", "Cullen", "F"), ("Eoin", "Power", "M"), ("Katarzyna", "Nowak", "F"), ("Darragh", "Phelan", "M")]
MEMBER_FIRST = ["Aidan", "Bronagh", "Cathal", "Deirdre", "Enda", "Fionnuala", "Gavin", "Hannah", "Ivan", "Jessica",
                "Karl", "Laura", "Mícheál", "Nadia", "Oisín", "Paula", "Ronan", "Sarah", "Thomas", "Una", "Vincent",
                "Wendy", "Yusuf", "Zoe"]
MEMBER_LAST = ["Murphy", "Kelly", "O'Brien", "Gallagher", "Lynch", "McCarthy", "Dunne", "Brady", "Farrell", "Hayes",
               "Kavanagh", "Moloney", "Reilly", "Flood", "Geraghty", "Hogan"]
MEMBER_TYPES = {"adult": (0.55, ["20.00", "25.00"]), "student": (0.15, ["10.00"]), "senior": (0.15, ["0.00", "5.00"]),
                "junior": (0.15, ["0.00"])}


@dataclass
class Thing:
    iri: str
    label: str
    cls: str
    facts: dict[str, Any] = field(default_factory=dict)      # datatype property → value
    links: dict[str, list[str]] = field(default_factory=dict)  # object property → IRIs

    def link(self, prop: str) -> str | None:
        return self.links.get(prop, [None])[0]


@dataclass
class Library:
    things: dict[str, Thing]

    def of(self, cls: str) -> list[Thing]:
        """The instances of a class and of its subclasses, at any depth."""
        subs = {cls}
        while grown := {c for c, parent, _, _ in CLASSES if parent in subs} - subs:
            subs |= grown
        return [t for t in self.things.values() if t.cls in subs]

    def named(self, label: str) -> Thing:
        return next(t for t in self.things.values() if t.label == label)

    def pointing(self, prop: str, target: str, cls: str | None = None) -> list[Thing]:
        """The things whose `prop` links to `target` (of `cls` when given)."""
        pool = self.of(cls) if cls else self.things.values()
        return [t for t in pool if target in t.links.get(prop, [])]


def iri(label: str) -> str:
    plain = unicodedata.normalize("NFKD", label).encode("ascii", "ignore").decode()
    return NS + "".join(w[:1].upper() + w[1:] for w in "".join(c if c.isalnum() else " " for c in plain).split())


def _day(rnd: random.Random, first: int, last: int) -> date:
    return date(first, 1, 1) + timedelta(days=rnd.randrange((date(last, 12, 31) - date(first, 1, 1)).days))


def _cost(rnd: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rnd.randrange(low, high)) + Decimal(rnd.choice(["0.49", "0.99", "0.00"]))


def _isbn(rnd: random.Random) -> str:
    digits = [9, 7, 8, 1] + [rnd.randrange(10) for _ in range(8)]
    check = (10 - sum(d * (3 if i % 2 else 1) for i, d in enumerate(digits)) % 10) % 10
    return "".join(map(str, digits)) + str(check)


class _Maker:
    """Adds typed, labelled things to one library, refusing a label's IRI twice."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd
        self.things: dict[str, Thing] = {}

    def add(self, label: str, cls: str, at: str | None = None, **facts: Any) -> Thing:
        t = Thing(at or iri(label), label, cls, {k: v for k, v in facts.items() if v is not None})
        assert t.iri not in self.things, t.iri
        self.things[t.iri] = t
        return t

    def branch_for_item(self) -> str:
        return iri(self.rnd.choices([b[0] for b in BRANCHES], weights=[b[3] for b in BRANCHES])[0])


def build(seed: int = 13) -> Library:
    """The instances, from the seed alone."""
    m = _Maker(random.Random(seed))
    _places(m)
    _people_of_the_books(m)
    _books(m)
    _other_items(m)
    _staff(m)
    _members_and_loans(m)
    return Library(m.things)


def _places(m: _Maker) -> None:
    rnd = m.rnd
    for name in COUNTRIES:
        m.add(name, "Country")
    for city, country in CITIES:
        m.add(city, "City").links["in_country"] = [iri(country)]
    for county, towns in COUNTIES.items():
        m.add(f"County {county}", "County")
        for town in towns:
            t = m.add(town, "Town", population=rnd.randrange(20, 300) * 100)
            t.links["in_county"] = [iri(f"County {county}")]
    for label, town, _, weight in BRANCHES:
        b = m.add(label, "Branch", openingDate=_day(rnd, 1958, 2019).isoformat(),
                  floor_area=Decimal(rnd.randrange(weight * 1500, weight * 3000)) / 10,
                  seatCount=rnd.randrange(weight * 8, weight * 20), weekly_hours=rnd.randrange(20, 61, 2))
        b.links["inTown"] = [iri(town)]


def _people_of_the_books(m: _Maker) -> None:
    for first, last, country, born in AUTHORS:
        m.add(f"{first} {last}", "Author", birthYear=born).links["nationality"] = [iri(country)]
    for name, city, founded in PUBLISHERS:
        m.add(name, "Publisher", founded_year=founded).links["based_in"] = [iri(city)]
    for name in SERIES:
        m.add(name, "Series")


def _book(m: _Maker, title: str, cls: str, surname: str, genre: str, publisher: str,
          pages: tuple[int, int]) -> Thing:
    rnd = m.rnd
    first, last, country, born = next(a for a in AUTHORS if a[1] == surname)
    native = NATIVE.get(country)
    b = m.add(title, cls, pageCount=rnd.randrange(*pages),
              publicationYear=rnd.randrange(min(born + 24, 2020), min(born + 75, 2024) + 1),
              isbn=_isbn(rnd), genre=genre, language=native if native and rnd.random() < 0.35 else "English",
              replacement_cost=_cost(rnd, 8, 35) if rnd.random() < 0.8 else None)
    b.links.update(writtenBy=[iri(f"{first} {last}")], publishedBy=[iri(publisher)], heldAt=[m.branch_for_item()])
    return b


def _books(m: _Maker) -> None:
    rnd = m.rnd
    for name, (surname, genre, publisher, graphic, titles) in SERIES.items():
        volumes = [_book(m, title, "GraphicNovel" if graphic else "Book", surname, genre, publisher,
                         (48, 220) if graphic else (260, 780 if genre == "fantasy" else 520)) for title in titles]
        years = sorted(b.facts["publicationYear"] for b in volumes)  # a series comes out in order
        for n, (b, year) in enumerate(zip(volumes, years), 1):
            b.facts.update(volumeNumber=n, publicationYear=year)
            b.links["partOfSeries"] = [iri(name)]
    for title, surname, genre in GRAPHIC:
        _book(m, title, "GraphicNovel", surname, genre, "Northlight Publishing", (60, 240))
    book_publishers = [p[0] for p in PUBLISHERS if p[0] not in ("Soundstage Audio", "Kumo Comics", "Harbour Media")]
    for title in STANDALONE:
        _book(m, title, "Book", rnd.choice(AUTHORS)[1], rnd.choice(FICTION), rnd.choice(book_publishers), (140, 920))
    for genre, titles in NONFICTION.items():
        for title in titles:
            _book(m, title, "Book", rnd.choice(AUTHORS)[1], genre, rnd.choice(book_publishers), (90, 480))


def _other_items(m: _Maker) -> None:
    rnd = m.rnd
    for title in AUDIOBOOKS:
        first, last, *_ = rnd.choice(AUTHORS)
        a = m.add(title, "Audiobook", runningTime=rnd.randrange(150, 1500), narrator=rnd.choice(NARRATORS),
                  publicationYear=rnd.randrange(1996, 2025), genre=rnd.choice([*FICTION, "biography", "history"]),
                  language="English", replacement_cost=_cost(rnd, 15, 46) if rnd.random() < 0.85 else None)
        a.links.update(writtenBy=[iri(f"{first} {last}")],
                       publishedBy=[iri(rnd.choice(["Soundstage Audio", "Soundstage Audio", "Halfpenny Books"]))],
                       heldAt=[m.branch_for_item()])
    for title in FILMS:
        f = m.add(title, "Film", runningTime=rnd.randrange(72, 196), director=rnd.choice(DIRECTORS),
                  age_rating=rnd.choice(["G", "PG", "PG", "12", "12", "15", "15", "18"]),
                  publicationYear=rnd.randrange(1958, 2025), genre=rnd.choice(FILM_GENRES),
                  language=rnd.choice(["English"] * 5 + ["French", "Irish"]),
                  replacement_cost=_cost(rnd, 6, 25) if rnd.random() < 0.75 else None)
        f.links["heldAt"] = [m.branch_for_item()]
    for title, issues in MAGAZINES:
        g = m.add(title, "Magazine", issuesPerYear=issues, language="English",
                  replacement_cost=_cost(rnd, 4, 10) if rnd.random() < 0.6 else None)
        g.links.update(publishedBy=[iri(rnd.choice(["Harbour Media", "Harbour Media", "Halfpenny Books"]))],
                       heldAt=[m.branch_for_item()])


def _staff(m: _Maker) -> None:
    """The county librarian heads Ashford Central; five librarians each manage a branch and report to her;
    everyone else works at a branch and reports to its manager, or to her where the branch has none."""
    rnd = m.rnd
    managed = [b[0] for b in BRANCHES if b[2]]
    head = iri(" ".join(STAFF[0][:2]))
    people = []
    for i, (first, last, _) in enumerate(STAFF):
        cls = "Librarian" if i < len(managed) or i % 3 == 0 else "Assistant"
        p = m.add(f"{first} {last}", cls, email=f"{iri(first)[len(NS):].lower()}.{iri(last)[len(NS):].lower()}"
                  "@ardmorelibraries.ie", hire_date=_day(rnd, 1994, 2024).isoformat(),
                  phone=f"+353 {rnd.randrange(21, 99)} {rnd.randrange(100, 999)} {rnd.randrange(1000, 9999)}"
                  if rnd.random() < 0.65 else None)
        people.append(p)
    for branch, p in zip(managed, people):
        m.things[iri(branch)].links["managedBy"] = [p.iri]
        p.links["worksAt"] = [iri(branch)]
        if p.iri != head:
            p.links["reportsTo"] = [head]
    for i, p in enumerate(people[len(managed):]):
        label, _, has_manager, _ = BRANCHES[i % len(BRANCHES)]
        p.links["worksAt"] = [iri(label)]
        p.links["reportsTo"] = [m.things[iri(label)].links["managedBy"][0] if has_manager else head]


def _members_and_loans(m: _Maker) -> None:
    rnd = m.rnd
    names = [(f, last) for f in MEMBER_FIRST for last in MEMBER_LAST]
    members = []
    for first, last in rnd.sample(names, 60):
        kind = rnd.choices(list(MEMBER_TYPES), weights=[w for w, _ in MEMBER_TYPES.values()])[0]
        p = m.add(f"{first} {last}", "Member", joinDate=_day(rnd, 2006, 2024).isoformat(), member_type=kind,
                  membership_fee=Decimal(rnd.choice(MEMBER_TYPES[kind][1])))
        p.links["registeredAt"] = [iri(rnd.choices([b[0] for b in BRANCHES], weights=[b[3] for b in BRANCHES])[0])]
        members.append(p)
    items = [t for t in m.things.values() if t.cls in ("Book", "GraphicNovel", "Audiobook", "Film", "Magazine")]
    borrowers = rnd.sample(members, 48)
    lent = rnd.sample(items, int(len(items) * 0.7))
    for n in range(160):
        member = borrowers[n] if n < len(borrowers) else rnd.choice(borrowers)
        out = max(_day(rnd, 2023, 2024), date.fromisoformat(member.facts["joinDate"]))
        back = out + timedelta(days=rnd.randrange(2, 45)) if rnd.random() < 0.85 else None
        loan = m.add(f"Loan {n + 1:04d}", "Loan", at=f"{NS}loan-{n + 1:04d}", loanDate=out.isoformat(),
                     dueDate=(out + timedelta(days=21)).isoformat(), return_date=back.isoformat() if back else None)
        loan.links.update(borrowedBy=[member.iri], loanedItem=[rnd.choice(lent).iri])


def schema_ttl() -> str:
    out = [PREFIXES, "<http://example.org/libraries> a owl:Ontology ;\n"
           '    rdfs:label "public library network" ;\n'
           '    rdfs:comment "Branches, their collections, staff and members, and the loans between them." .\n\n']
    for local, parent, label, comment in CLASSES:
        sub = f"    rdfs:subClassOf lib:{parent} ;\n" if parent else ""
        out.append(f"lib:{local} a owl:Class ;\n{sub}    rdfs:label {literal(label)} ;\n"
                   f"    rdfs:comment {literal(comment)} .\n\n")
    for local, is_obj, dom, rng, label, comment in PROPS:
        out.append(property_ttl("lib", local, is_obj, dom, f"lib:{rng}" if is_obj else rng, label, comment) + "\n")
    return "".join(out)


def instances_ttl(lib: Library) -> str:
    out = [PREFIXES]
    for t in lib.things.values():
        lines = [f"<{t.iri}> a lib:{t.cls} ;", f"    rdfs:label {literal(t.label)}"]
        lines += [f"    lib:{p} {literal(v, TYPES[p])}" for p, v in t.facts.items()]
        lines += [f"    lib:{p} " + ", ".join(f"<{o}>" for o in objs) for p, objs in t.links.items()]
        out.append(" ;\n".join(lines) + " .\n")
    return "\n".join(out)
