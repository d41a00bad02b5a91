"""The library network's questions (held out): written as a branch manager, a librarian or a reader
would ask them, without regard to what the planner can do; every gold row computed from the
generator's records (see `library`).

Gold rows as in the catalogue: a list of rows, each the values one answer row must hold (IRIs, or
literals as the store writes them; counts as the integer's digits; a yes/no question's verdict as
"yes" or "no"). A derived question (a share, a difference, a ratio, an age from today's date) has gold
None: the right outcome is to pass it down unanswered.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from benchmarks.analytics.library import STAFF, Library, Thing, iri

Rows = list[tuple[str, ...]]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def _q(kind: str, question: str, gold: Rows | None) -> dict[str, Any]:
    return {"kind": kind, "question": question, "gold": [list(r) for r in gold] if gold is not None else None}


def _v(value: Any) -> str:
    return str(value)


def _mean(values: list[Any]) -> str:
    return str(sum(Decimal(str(v)) for v in values) / len(values))


def _yes(held: bool) -> Rows:
    return [("yes" if held else "no",)]


def _ids(things: list[Thing]) -> Rows:
    return [(t.iri,) for t in things]


def _extreme(things: list[Thing], prop: str, high: bool, k: int = 1) -> Rows:
    """The k things highest (or lowest) in `prop`, with any tied with the k-th."""
    held = sorted((t for t in things if prop in t.facts), key=lambda t: t.facts[prop], reverse=high)
    cut = held[k - 1].facts[prop]
    return [(t.iri,) for t in held if (t.facts[prop] >= cut if high else t.facts[prop] <= cut)]


def _place(things: list[Thing], prop: str, high: bool, first: int, last: int) -> Rows:
    """The things in places first..last (from 1) when ordered by `prop`."""
    held = sorted((t for t in things if prop in t.facts), key=lambda t: t.facts[prop], reverse=high)
    return _ids(held[first - 1:last])


def _short(branch: Thing) -> str:
    return branch.label.removesuffix(" Library")


def _loans_of(lib: Library) -> dict[str, list[Thing]]:
    """Member IRI → that member's loans."""
    out: dict[str, list[Thing]] = defaultdict(list)
    for loan in lib.of("Loan"):
        out[loan.links["borrowedBy"][0]].append(loan)
    return out


def _by_author(lib: Library, cls: str = "Book") -> dict[str, list[Thing]]:
    out: dict[str, list[Thing]] = defaultdict(list)
    for t in lib.of(cls):
        out[t.links["writtenBy"][0]].append(t)
    return out


def questions(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for make in MAKERS:
        out += make(lib, rnd)
    for i, q in enumerate(out, 1):
        q["id"] = f"lib-{i:03d}"
    return out


def _lookups(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    the = lib.named
    book, series_book = the("The Salt Orchard"), the("Crown of Cinders")
    long_read = rnd.choice(lib.of("Book"))
    film = rnd.choice([f for f in lib.of("Film") if "replacement_cost" in f.facts])
    other_film = rnd.choice([f for f in lib.of("Film") if f is not film])
    audio, mag = rnd.choice(lib.of("Audiobook")), rnd.choice(lib.of("Magazine"))
    shelved = rnd.choice(lib.of("Item"))
    author, publisher = the("Chinwe Adebayo"), the("Tejo Editora")
    riverside, harbour, town = the("Riverside Library"), the("Harbour Road Library"), the("Dunmore")
    isbn_book = rnd.choice(lib.of("Book"))
    return [
        _q("lookup", f"Who wrote {book.label}?", [(book.links["writtenBy"][0],)]),
        _q("lookup", f"How many pages does {long_read.label} have?", [(_v(long_read.facts["pageCount"]),)]),
        _q("lookup", f"Which branch has {shelved.label} on its shelves?", [(shelved.links["heldAt"][0],)]),
        _q("lookup", "When did the Riverside branch open?", [(riverside.facts["openingDate"],)]),
        _q("lookup", f"Who publishes {mag.label}?", [(mag.links["publishedBy"][0],)]),
        _q("lookup", "Which town is the Harbour Road library in?", [(harbour.links["inTown"][0],)]),
        _q("lookup", f"How much would it cost us to replace the DVD of {film.label}?",
           [(_v(film.facts["replacement_cost"]),)]),
        _q("lookup", f"Which series is {series_book.label} part of?", [(series_book.links["partOfSeries"][0],)]),
        _q("lookup", f"Where is {publisher.label} based?", [(publisher.links["based_in"][0],)]),
        _q("lookup", f"What nationality is {author.label}?", [(author.links["nationality"][0],)]),
        _q("lookup", f"How long is the film {other_film.label}?", [(_v(other_film.facts["runningTime"]),)]),
        _q("lookup", f"Who reads the audiobook of {audio.label}?", [(audio.facts["narrator"],)]),
        _q("lookup", f"What's the ISBN of {isbn_book.label}?", [(isbn_book.facts["isbn"],)]),
        _q("lookup", "Which county is Dunmore in?", [(town.links["in_county"][0],)]),
    ]


def _attributes(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    staff = lib.of("StaffMember")
    with_phone = rnd.choice([p for p in staff if "phone" in p.facts])
    without = rnd.choice([p for p in staff if "phone" not in p.facts])
    branch, film = rnd.choice(lib.of("Branch")), rnd.choice(lib.of("Film"))
    loans = _loans_of(lib)
    member = rnd.choice([lib.things[m] for m, ls in loans.items() if len(ls) >= 3])
    newcomer = rnd.choice(lib.of("Member"))
    author = lib.named("Harriet Bellamy")
    town = lib.named("Kilmeen")
    return [
        _q("attributes", f"What are the phone number and e-mail address of {with_phone.label}?",
           [(with_phone.facts["phone"], with_phone.facts["email"])]),
        _q("attributes", f"Can I have {without.label}'s email and phone number?", [(without.facts["email"],)]),
        _q("attributes", f"Show the floor area and the number of seats at {branch.label}.",
           [(_v(branch.facts["floor_area"]), _v(branch.facts["seatCount"]))]),
        _q("attributes", f"Tell me the running time, age rating and director of {film.label}.",
           [(_v(film.facts["runningTime"]), film.facts["age_rating"], film.facts["director"])]),
        _q("attributes", f"When did {newcomer.label} join, and which branch are they registered at?",
           [(newcomer.facts["joinDate"], newcomer.links["registeredAt"][0])]),
        _q("attributes", f"For each loan {member.label} has taken out: what was borrowed, when, and when did it "
           "come back?", [(ln.links["loanedItem"][0], ln.facts["loanDate"],
                           *([ln.facts["return_date"]] if "return_date" in ln.facts else []))
                          for ln in loans[member.iri]]),
        _q("attributes", f"List each of {author.label}'s books with its year of publication and publisher.",
           [(b.iri, _v(b.facts["publicationYear"]), b.links["publishedBy"][0])
            for b in _by_author(lib)[author.iri]]),
        _q("attributes", "What is the population of Kilmeen, and which county is it in?",
           [(_v(town.facts["population"]), town.links["in_county"][0])]),
        _q("attributes", "For every magazine we take, how many issues come out a year?",
           [(g.iri, _v(g.facts["issuesPerYear"])) for g in lib.of("Magazine")]),
    ]


def _sorted(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books = _by_author(lib)
    prolific = max((a for a in books if a != iri("Niamh Tolland")), key=lambda a: (len(books[a]), a))
    name = lib.things[prolific].label
    branch = lib.named("Ashford Central Library")
    series = lib.named("The Lisbon Quartet")
    return [
        _q("sorted", f"Give title, year and publisher of every book by {name}, newest first.",
           [(b.iri, _v(b.facts["publicationYear"]), b.links["publishedBy"][0]) for b in books[prolific]]),
        _q("sorted", "List our branches by opening date, oldest first.", _ids(lib.of("Branch"))),
        _q("sorted", "Put the films in order of running time, shortest first.", _ids(lib.of("Film"))),
        _q("sorted", "Show all the staff at Ashford Central in the order they were hired.",
           _ids(lib.pointing("worksAt", branch.iri))),
        _q("sorted", "Rank the publishers by the year they were founded.", _ids(lib.of("Publisher"))),
        _q("sorted", f"What order should I read {series.label} in?", _ids(lib.pointing("partOfSeries", series.iri))),
    ]


def _counts(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    def n(things: list[Any]) -> Rows:
        return [(str(len(things)),)]

    return [
        _q("count", "How many books does the library network own?", n(lib.of("Book"))),
        _q("count", "How many DVDs do we have?", n(lib.of("Film"))),
        _q("count", "How many branches are there in the network?", n(lib.of("Branch"))),
        _q("count", "How many registered members are there?", n(lib.of("Member"))),
        _q("count", "How many librarians do we employ?", n(lib.of("Librarian"))),
        _q("count", "What is the total number of items across all branches?", n(lib.of("Item"))),
        _q("count", "How many loans have been recorded?", n(lib.of("Loan"))),
        _q("count", "How many graphic novels are in the collection?", n(lib.of("GraphicNovel"))),
        _q("count", "How many magazine titles do we subscribe to?", n(lib.of("Magazine"))),
        _q("count", "How many people work for the library service?", n(lib.of("StaffMember"))),
    ]


def _count_filters(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    def n(things: list[Any]) -> Rows:
        return [(str(len(things)),)]

    riverside, dunmore = iri("Riverside Library"), iri("Dunmore Library")
    year = rnd.randrange(2015, 2024)
    tolland = iri("Niamh Tolland")
    return [
        _q("count_filter", "How many audiobooks does the Riverside branch hold?",
           n(lib.pointing("heldAt", riverside, "Audiobook"))),
        _q("count_filter", "How many books have more than 400 pages?",
           n([b for b in lib.of("Book") if b.facts["pageCount"] > 400])),
        _q("count_filter", "How many loans are still out?", n([ln for ln in lib.of("Loan")
                                                               if "return_date" not in ln.facts])),
        _q("count_filter", f"How many members joined in {year}?",
           n([m for m in lib.of("Member") if m.facts["joinDate"].startswith(str(year))])),
        _q("count_filter", "How many films run longer than two hours?",
           n([f for f in lib.of("Film") if f.facts["runningTime"] > 120])),
        _q("count_filter", "How many of our authors are Irish?", n(lib.pointing("nationality", iri("Ireland")))),
        _q("count_filter", "How many items are held at Dunmore?", n(lib.pointing("heldAt", dunmore))),
        _q("count_filter", "How many members pay no membership fee?",
           n([m for m in lib.of("Member") if m.facts["membership_fee"] == 0])),
        _q("count_filter", "How many books by Niamh Tolland do we have?", n(lib.pointing("writtenBy", tolland, "Book"))),
    ]


def _filters(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books, films, branches = lib.of("Book"), lib.of("Film"), lib.of("Branch")
    publisher = lib.named("Liffey Press")
    irish = {a.iri for a in lib.pointing("nationality", iri("Ireland"))}
    return [
        _q("filter", "List DVDs under 90 minutes.", _ids([f for f in films if f.facts["runningTime"] < 90])),
        _q("filter", "Which books have fewer than 150 pages?", _ids([b for b in books if b.facts["pageCount"] < 150])),
        _q("filter", "Which items cost more than 30 euros to replace?",
           _ids([t for t in lib.of("Item") if t.facts.get("replacement_cost", 0) > 30])),
        _q("filter", "Which branches have more than 60 seats?",
           _ids([b for b in branches if b.facts["seatCount"] > 60])),
        _q("filter", "Which branches have a floor area over 800 square metres?",
           _ids([b for b in branches if b.facts["floor_area"] > 800])),
        _q("filter", "Show me all the crime novels.", _ids([b for b in books if b.facts["genre"] == "crime"])),
        _q("filter", "Which of our books are in French?", _ids([b for b in books if b.facts["language"] == "French"])),
        _q("filter", "Which films are rated 18?", _ids([f for f in films if f.facts["age_rating"] == "18"])),
        _q("filter", f"Which books did {publisher.label} publish?", _ids(lib.pointing("publishedBy", publisher.iri,
                                                                                      "Book"))),
        _q("filter", "Which books were written by Irish authors?",
           _ids([b for b in books if b.links["writtenBy"][0] in irish])),
        _q("filter", "Which magazines come out weekly?",
           _ids([g for g in lib.of("Magazine") if g.facts["issuesPerYear"] == 52])),
        _q("filter", "Which members pay more than 20 euros a year?",
           _ids([m for m in lib.of("Member") if m.facts["membership_fee"] > 20])),
        _q("filter", "Which films run for more than three and a half hours?",
           _ids([f for f in films if f.facts["runningTime"] > 210])),
    ]


def _superlatives(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    return [
        _q("superlative", "Which is the longest book in the collection?", _extreme(lib.of("Book"), "pageCount", True)),
        _q("superlative", "What is the shortest film we have?", _extreme(lib.of("Film"), "runningTime", False)),
        _q("superlative", "Which branch has the most seats?", _extreme(lib.of("Branch"), "seatCount", True)),
        _q("superlative", "Which is our oldest branch?", _extreme(lib.of("Branch"), "openingDate", False)),
        _q("superlative", "Which item is the most expensive to replace?",
           _extreme(lib.of("Item"), "replacement_cost", True)),
        _q("superlative", "Who is our longest-serving member of staff?",
           _extreme(lib.of("StaffMember"), "hire_date", False)),
        _q("superlative", "Which branch has the largest floor area?", _extreme(lib.of("Branch"), "floor_area", True)),
        _q("superlative", "Who is the youngest author in the collection?", _extreme(lib.of("Author"), "birthYear",
                                                                                    True)),
        _q("superlative", "What's the most recent audiobook we have?",
           _extreme(lib.of("Audiobook"), "publicationYear", True)),
        _q("superlative", "Which publisher has been around the longest?",
           _extreme(lib.of("Publisher"), "founded_year", False)),
        _q("superlative", "Which town has the largest population?", _extreme(lib.of("Town"), "population", True)),
        _q("superlative", "Which member joined most recently?", _extreme(lib.of("Member"), "joinDate", True)),
        _q("superlative", "What's the oldest book on our shelves?", _extreme(lib.of("Book"), "publicationYear", False)),
    ]


def _filter_superlatives(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books = lib.of("Book")
    irish = {a.iri for a in lib.pointing("nationality", iri("Ireland"))}
    publisher = lib.named("Halfpenny Books")
    glenvale = {t.iri for t in lib.pointing("in_county", iri("County Glenvale"))}
    return [
        _q("filter_superlative", "Which is the longest crime novel?",
           _extreme([b for b in books if b.facts["genre"] == "crime"], "pageCount", True)),
        _q("filter_superlative", "What is the shortest film held at Riverside?",
           _extreme(lib.pointing("heldAt", iri("Riverside Library"), "Film"), "runningTime", False)),
        _q("filter_superlative", f"Which is the oldest book published by {publisher.label}?",
           _extreme(lib.pointing("publishedBy", publisher.iri, "Book"), "publicationYear", False)),
        _q("filter_superlative", "Which audiobook by an Irish author runs the longest?",
           _extreme([a for a in lib.of("Audiobook") if a.links["writtenBy"][0] in irish], "runningTime", True)),
        _q("filter_superlative", "What is the biggest branch in County Glenvale?",
           _extreme([b for b in lib.of("Branch") if b.links["inTown"][0] in glenvale], "floor_area", True)),
        _q("filter_superlative", "Of the books over 400 pages, which is the cheapest to replace?",
           _extreme([b for b in books if b.facts["pageCount"] > 400], "replacement_cost", False)),
        _q("filter_superlative", "Which librarian was hired most recently?",
           _extreme(lib.of("Librarian"), "hire_date", True)),
    ]


def _top_and_places(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books, branches = lib.of("Book"), lib.of("Branch")
    return [
        _q("top_k", "What are the five longest books?", _extreme(books, "pageCount", True, 5)),
        _q("top_k", "Name the three largest branches by floor area.", _extreme(branches, "floor_area", True, 3)),
        _q("top_k", "Show me the three most recent films.", _extreme(lib.of("Film"), "publicationYear", True, 3)),
        _q("top_k", "Which four items would cost the most to replace?",
           _extreme(lib.of("Item"), "replacement_cost", True, 4)),
        _q("top_k", "Who are our two youngest authors?", _extreme(lib.of("Author"), "birthYear", True, 2)),
        _q("top_k", "Which 3 members joined most recently?", _extreme(lib.of("Member"), "joinDate", True, 3)),
        _q("top_k", "List the 3 oldest branches.", _extreme(branches, "openingDate", False, 3)),
        _q("places", "Which is the second longest book?", _place(books, "pageCount", True, 2, 2)),
        _q("places", "What is the third oldest branch?", _place(branches, "openingDate", False, 3, 3)),
        _q("places", "Which DVD is the second most expensive to replace?",
           _place(lib.of("Film"), "replacement_cost", True, 2, 2)),
        _q("places", "Which branches have the second and third most seats?",
           _place(branches, "seatCount", True, 2, 3)),
        _q("places", "Who is the second most recently hired member of staff?",
           _place(lib.of("StaffMember"), "hire_date", True, 2, 2)),
    ]


def _aggregates(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books, films, branches, members = lib.of("Book"), lib.of("Film"), lib.of("Branch"), lib.of("Member")
    kilmeen = lib.pointing("registeredAt", iri("Kilmeen Library"))
    return [
        _q("aggregate", "What is the average number of pages of our books?",
           [(_mean([b.facts["pageCount"] for b in books]),)]),
        _q("aggregate", "What is the total replacement cost of all our DVDs?",
           [(_v(sum(f.facts["replacement_cost"] for f in films if "replacement_cost" in f.facts)),)]),
        _q("aggregate", "What is the average running time of the audiobooks?",
           [(_mean([a.facts["runningTime"] for a in lib.of("Audiobook")]),)]),
        _q("aggregate", "What is the combined floor area of all branches?",
           [(_v(sum(b.facts["floor_area"] for b in branches)),)]),
        _q("aggregate", "How many seats are there across all branches?",
           [(_v(sum(b.facts["seatCount"] for b in branches)),)]),
        _q("aggregate", "What is the highest membership fee anyone pays?",
           [(_v(max(m.facts["membership_fee"] for m in members)),)]),
        _q("aggregate", "What is the earliest publication year of any book we hold?",
           [(_v(min(b.facts["publicationYear"] for b in books)),)]),
        _q("aggregate", "What is the average membership fee paid by members registered at Kilmeen?",
           [(_mean([m.facts["membership_fee"] for m in kilmeen]),)]),
        _q("aggregate", "How long is our longest film, in minutes?",
           [(_v(max(f.facts["runningTime"] for f in films)),)]),
    ]


def _grouped(things: list[Thing], key: Callable[[Thing], str | None]) -> dict[str, list[Thing]]:
    out: dict[str, list[Thing]] = defaultdict(list)
    for t in things:
        if (k := key(t)) is not None:
            out[k].append(t)
    return out


def _groups(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    def counted(groups: dict[str, list[Thing]]) -> Rows:
        return [(k, str(len(v))) for k, v in groups.items()]

    held = _grouped(lib.of("Item"), lambda t: t.link("heldAt"))
    members = _grouped(lib.of("Member"), lambda t: t.link("registeredAt"))
    genres = _grouped(lib.of("Book"), lambda t: t.facts["genre"])
    staff = _grouped(lib.of("StaffMember"), lambda t: t.link("worksAt"))
    nations = _grouped(lib.of("Author"), lambda t: t.link("nationality"))
    series = _grouped(lib.of("Book"), lambda t: t.link("partOfSeries"))
    counties = _grouped(lib.of("Branch"), lambda t: lib.things[t.links["inTown"][0]].link("in_county"))
    costed = _grouped([t for t in lib.of("Item") if "replacement_cost" in t.facts], lambda t: t.link("heldAt"))
    ratings = _grouped(lib.of("Film"), lambda t: t.facts["age_rating"])
    publishers = _grouped(lib.of("Book"), lambda t: t.link("publishedBy"))
    return [
        _q("group_count", "How many items does each branch hold?", counted(held)),
        _q("group_count", "Number of members per branch, please.", counted(members)),
        _q("group_count", "How many books are there in each genre?", counted(genres)),
        _q("group_count", "How many staff work at each branch?", counted(staff)),
        _q("group_count", "How many authors are there of each nationality?", counted(nations)),
        _q("group_count", "How many books are in each series?", counted(series)),
        _q("group_count", "How many branches does each county have?", counted(counties)),
        _q("group_aggregate", "Average replacement cost per branch",
           [(k, _mean([t.facts["replacement_cost"] for t in v])) for k, v in costed.items()]),
        _q("group_aggregate", "What is the average page count for each genre?",
           [(k, _mean([t.facts["pageCount"] for t in v])) for k, v in genres.items()]),
        _q("group_aggregate", "What is the total floor area of the branches in each county?",
           [(k, _v(sum(t.facts["floor_area"] for t in v))) for k, v in counties.items()]),
        _q("group_aggregate", "What's the average running time of our films for each age rating?",
           [(k, _mean([t.facts["runningTime"] for t in v])) for k, v in ratings.items()]),
        _q("group_aggregate", "Average membership fee by home branch?",
           [(k, _mean([t.facts["membership_fee"] for t in v])) for k, v in members.items()]),
        _q("group_aggregate", "For each publisher, what is the average length in pages of its books?",
           [(k, _mean([t.facts["pageCount"] for t in v])) for k, v in publishers.items()]),
    ]


def _having(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    held = _grouped(lib.of("Item"), lambda t: t.link("heldAt"))
    books = _by_author(lib)
    loans = _loans_of(lib)
    series = _grouped(lib.of("Book"), lambda t: t.link("partOfSeries"))
    towns = _grouped(lib.of("Branch"), lambda t: t.link("inTown"))
    staff = _grouped(lib.of("StaffMember"), lambda t: t.link("worksAt"))
    members = _grouped(lib.of("Member"), lambda t: t.link("registeredAt"))
    lent = Counter(ln.links["loanedItem"][0] for ln in lib.of("Loan"))
    counties = _grouped(lib.of("Branch"), lambda t: lib.things[t.links["inTown"][0]].link("in_county"))

    def top(groups: dict[str, Any], high: bool = True) -> Rows:
        sizes = {k: len(v) for k, v in groups.items()}
        best = max(sizes.values()) if high else min(sizes.values())
        return [(k,) for k, n in sizes.items() if n == best]

    return [
        _q("having", "Which branches hold more than 15 items?", [(k,) for k, v in held.items() if len(v) > 15]),
        _q("having", "Which authors have at least three books in our collection?",
           [(k,) for k, v in books.items() if len(v) >= 3]),
        _q("having", "Which members have taken out more than four loans?",
           [(k,) for k, v in loans.items() if len(v) > 4]),
        _q("having", "Which series have more than three books?", [(k,) for k, v in series.items() if len(v) > 3]),
        _q("having", "Which towns have more than one library branch?", [(k,) for k, v in towns.items() if len(v) > 1]),
        _q("having", "Which branches have more than three staff?", [(k,) for k, v in staff.items() if len(v) > 3]),
        _q("rank_count", "Which branch has the most members?", top(members)),
        _q("rank_count", "Who has borrowed the most?", top(loans)),
        _q("rank_count", "Which author has the most books in the collection?", top(books)),
        _q("rank_count", "Which item has been borrowed most often?", top({k: [0] * n for k, n in lent.items()})),
        _q("rank_count", "Which county has the fewest branches?", top(counties, high=False)),
    ]


def _ranked_totals(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    costed = _grouped([t for t in lib.of("Item") if "replacement_cost" in t.facts], lambda t: t.link("heldAt"))
    cost = {k: sum(t.facts["replacement_cost"] for t in v) / len(v) for k, v in costed.items()}
    genres = _grouped(lib.of("Book"), lambda t: t.facts["genre"])
    pages = {k: Decimal(sum(t.facts["pageCount"] for t in v)) / len(v) for k, v in genres.items()}
    members = _grouped(lib.of("Member"), lambda t: t.link("registeredAt"))
    fee = {k: sum(t.facts["membership_fee"] for t in v) / len(v) for k, v in members.items()}
    return [
        _q("rank_total", "Which branch has the highest average replacement cost?",
           [(k,) for k, v in cost.items() if v == max(cost.values())]),
        _q("rank_total", "Which genre has the longest books on average?",
           [(k,) for k, v in pages.items() if v == max(pages.values())]),
        _q("having_total", "Which branches have an average membership fee above 12 euros?",
           [(k,) for k, v in fee.items() if v > 12]),
        _q("having_total", "Which genres have books averaging more than 400 pages?",
           [(k,) for k, v in pages.items() if v > 400]),
    ]


def _negation(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    borrowers = {ln.links["borrowedBy"][0] for ln in lib.of("Loan")}
    lent = {ln.links["loanedItem"][0] for ln in lib.of("Loan")}
    staff = lib.of("StaffMember")
    bosses = {p.links["reportsTo"][0] for p in staff if "reportsTo" in p.links}
    with_branch = {b.links["inTown"][0] for b in lib.of("Branch")}
    return [
        _q("negation", "Which branches have no manager?", _ids([b for b in lib.of("Branch")
                                                                 if "managedBy" not in b.links])),
        _q("negation", "Which members have never borrowed anything?",
           _ids([m for m in lib.of("Member") if m.iri not in borrowers])),
        _q("negation", "Which items have never been lent out?", _ids([t for t in lib.of("Item") if t.iri not in lent])),
        _q("negation", "Which staff members have no phone number?", _ids([p for p in staff if "phone" not in p.facts])),
        _q("negation", "Which items have no replacement cost recorded?",
           _ids([t for t in lib.of("Item") if "replacement_cost" not in t.facts])),
        _q("negation", "Which books aren't part of a series?",
           _ids([b for b in lib.of("Book") if "partOfSeries" not in b.links])),
        _q("negation", "Which loans haven't been returned yet?",
           _ids([ln for ln in lib.of("Loan") if "return_date" not in ln.facts])),
        _q("negation", "Which towns have no library branch?", _ids([t for t in lib.of("Town")
                                                                     if t.iri not in with_branch])),
        _q("negation", "Who on the staff has nobody reporting to them?", _ids([p for p in staff
                                                                               if p.iri not in bosses])),
        _q("negation", "Which staff members don't report to anyone?", _ids([p for p in staff
                                                                             if "reportsTo" not in p.links])),
    ]


def _yes_no(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    nations = {a.links["nationality"][0] for a in lib.of("Author")}
    cities = {p.links["based_in"][0] for p in lib.of("Publisher")}
    book = rnd.choice(lib.of("Book"))
    pages = round(book.facts["pageCount"] + rnd.choice([-60, 60]), -1)
    branch = rnd.choice(lib.of("Branch"))
    person, elsewhere = rnd.choice(lib.of("StaffMember")), rnd.choice(lib.of("Branch"))
    borrowers = {ln.links["borrowedBy"][0] for ln in lib.of("Loan")}
    members = lib.of("Member")
    keen = rnd.choice([m for m in members if m.iri in borrowers])
    idle = rnd.choice([m for m in members if m.iri not in borrowers])
    opened = lib.named("Dunmore Library").facts["openingDate"]
    out = [
        _q("yes_no", "Is there an author from Portugal?", _yes(iri("Portugal") in nations)),
        _q("yes_no", "Do we have any authors from Japan?", _yes(iri("Japan") in nations)),
        _q("yes_no", "Is any of our publishers based in Edinburgh?", _yes(iri("Edinburgh") in cities)),
        _q("yes_no", f"Is {book.label} longer than {pages:g} pages?", _yes(book.facts["pageCount"] > pages)),
        _q("yes_no", "Did the Dunmore library open before 1990?", _yes(opened < "1990-01-01")),
        _q("yes_no", f"Does {person.label} work at {elsewhere.label}?",
           _yes(person.links["worksAt"][0] == elsewhere.iri)),
        _q("yes_no", f"Has {keen.label} ever borrowed anything?", _yes(True)),
        _q("yes_no", f"Has {idle.label} ever borrowed anything?", _yes(False)),
        _q("yes_no", f"Does {_short(branch)} hold any magazines?",
           _yes(bool(lib.pointing("heldAt", branch.iri, "Magazine")))),
    ]
    for label in ("Market Square Library", "Kilmeen Library"):
        b = lib.named(label)
        out.append(_q("yes_no", f"Does the {_short(b)} branch have a manager?", _yes("managedBy" in b.links)))
    return out


def _names(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    the = lib.named
    okafor, keane = the("Adaeze Okafor"), the("Siobhan Keane")
    title = {f"{first} {last}": "Mr" if gender == "M" else "Ms" for first, last, gender in STAFF}
    mr = rnd.choice([p for p in lib.of("StaffMember") if title[p.label] == "Mr"])
    phoned = rnd.choice([p for p in lib.of("StaffMember") if "phone" in p.facts and p is not okafor])
    where = _short(lib.things[phoned.links["worksAt"][0]])
    return [
        _q("names", "Who does the librarian Ms Okafor report to?", [(okafor.links["reportsTo"][0],)]),
        _q("names", f"What is Mr {mr.label.split()[-1]}'s e-mail address?", [(mr.facts["email"],)]),
        _q("names", "Which branch does Siobhan work at?", [(keane.links["worksAt"][0],)]),
        _q("names", f"What's the phone number for {title[phoned.label]} {phoned.label.split()[-1]} at {where}?",
           [(phoned.facts["phone"],)]),
        _q("names", "Which books by Tolland do we hold?", _ids(lib.pointing("writtenBy", iri("Niamh Tolland"), "Book"))),
        _q("names", "When did Siobhan start working for us?", [(keane.facts["hire_date"],)]),
        _q("names", "Who reports to Adaeze?", _ids(lib.pointing("reportsTo", okafor.iri))),
    ]


def _value_sets(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    books = lib.of("Book")
    at = {iri("Riverside Library"), iri("Harbour Road Library")}
    home = {iri("Ballincar Library"), iri("Rathbeg Library")}
    cities = {c.iri for c in lib.of("City") if c.links["in_country"][0] in {iri("Ireland"), iri("Portugal")}}
    return [
        _q("value_set", "Which authors are from Nigeria or Canada?",
           _ids([a for a in lib.of("Author") if a.links["nationality"][0] in {iri("Nigeria"), iri("Canada")}])),
        _q("value_set", "List the books in the crime or science fiction genres.",
           _ids([b for b in books if b.facts["genre"] in ("crime", "science fiction")])),
        _q("value_set", "Which items are held at Riverside or Harbour Road?",
           _ids([t for t in lib.of("Item") if t.links["heldAt"][0] in at])),
        _q("value_set", "Which members are registered at Ballincar or Rathbeg?",
           _ids([m for m in lib.of("Member") if m.links["registeredAt"][0] in home])),
        _q("value_set", "Which films are rated 12 or 15?",
           _ids([f for f in lib.of("Film") if f.facts["age_rating"] in ("12", "15")])),
        _q("value_set", "Which publishers are based in Ireland or Portugal?",
           _ids([p for p in lib.of("Publisher") if p.links["based_in"][0] in cities])),
    ]


def _dates(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    loans = lib.of("Loan")
    year = rnd.randrange(2016, 2024)
    day = rnd.choice(loans).facts["loanDate"]
    y, m, d = (int(x) for x in day.split("-"))
    return [
        _q("dates", "Which branches opened after 2000?",
           _ids([b for b in lib.of("Branch") if b.facts["openingDate"] > "2000-12-31"])),
        _q("dates", f"Which members joined in {year}?",
           _ids([p for p in lib.of("Member") if p.facts["joinDate"].startswith(f"{year}-")])),
        _q("dates", "Which loans were made in March 2024?",
           _ids([ln for ln in loans if ln.facts["loanDate"].startswith("2024-03-")])),
        _q("dates", "Which staff were hired before 2010?",
           _ids([p for p in lib.of("StaffMember") if p.facts["hire_date"] < "2010-01-01"])),
        _q("dates", "Which books were published before 1960?",
           _ids([b for b in lib.of("Book") if b.facts["publicationYear"] < 1960])),
        _q("dates", f"What was borrowed on {d} {MONTHS[m - 1]} {y}?",
           [(ln.links["loanedItem"][0],) for ln in loans if ln.facts["loanDate"] == day]),
        _q("dates", "Which loans came back during 2023?",
           _ids([ln for ln in loans if ln.facts.get("return_date", "").startswith("2023-")])),
        _q("dates", "Which films came out in the 1990s?",
           _ids([f for f in lib.of("Film") if 1990 <= f.facts["publicationYear"] <= 1999])),
    ]


def _derived(lib: Library, rnd: random.Random) -> list[dict[str, Any]]:
    a, b = (_short(x) for x in rnd.sample(lib.of("Branch"), 2))
    return [
        _q("derived", "What share of loans are overdue per branch?", None),
        _q("derived", "What percentage of members have borrowed at least one item?", None),
        _q("derived", "On average, how many days do members keep an item before returning it?", None),
        _q("derived", "What is the ratio of books to DVDs in the collection?", None),
        _q("derived", f"How many more seats does {a} have than {b}?", None),
        _q("derived", "What fraction of the collection is audiobooks?", None),
        _q("derived", "How many years has the Riverside branch been open?", None),
        _q("derived", "What is the average age of our authors today?", None),
    ]


MAKERS: list[Callable[[Library, random.Random], list[dict[str, Any]]]] = [
    _lookups, _attributes, _sorted, _counts, _count_filters, _filters, _superlatives, _filter_superlatives,
    _top_and_places, _aggregates, _groups, _having, _ranked_totals, _negation, _yes_no, _names, _value_sets, _dates,
    _derived]
