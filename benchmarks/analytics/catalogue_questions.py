"""The catalogue's questions, in our own words, each kind in a few wordings, every gold row computed
from the generator's records (see `catalogue`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from statistics import mean
from typing import Any

from benchmarks.analytics.catalogue import COUNTRIES, DEPARTMENTS, KINDS, Catalogue, Thing, _iri

Rows = list[tuple[str, ...]]
PLURAL = {"Laptop": "laptops", "Monitor": "monitors", "Printer": "printers", "Headset": "headsets",
          "Product": "products"}
# adjective → (property, highest first?)
ADJECTIVES = {"cheapest": ("price", False), "most expensive": ("price", True), "lightest": ("weight", False),
              "heaviest": ("weight", True), "widest": ("width", True), "narrowest": ("width", False),
              "newest": ("releaseDate", True), "oldest": ("releaseDate", False)}
UNITS = {"price": ("cost less than {n} euros", "cost more than {n} euros", "are priced under €{n}",
                   "sell for over {n} euros"),
         "weight": ("weigh less than {n} kg", "weigh more than {n} kg", "are lighter than {n} kilograms",
                    "are heavier than {n} kilograms"),
         "width": ("are narrower than {n} cm", "are wider than {n} cm", "measure under {n} centimetres across",
                   "are more than {n} cm wide")}
_BELOW = (0, 2)           # which of UNITS' wordings keep the values below the number


def _num(v: float) -> str:
    return str(round(v, 6))  # scoring rounds to two decimals, half up (benchmarks.analytics.normal)


def _extreme(things: list[Thing], prop: str, high: bool, k: int = 1) -> Rows:
    held = [t for t in things if prop in t.facts]
    ordered = sorted(held, key=lambda t: t.facts[prop], reverse=high)
    cut = ordered[k - 1].facts[prop]
    return [(t.iri,) for t in ordered if (t.facts[prop] >= cut if high else t.facts[prop] <= cut)]


def _q(kind: str, question: str, gold: Rows | None, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "question": question, "gold": [list(r) for r in gold] if gold is not None else None, **extra}


def questions(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for make in MAKERS:
        out += make(cat, rnd)
    for i, q in enumerate(out, 1):
        q["id"] = f"cat-{i:03d}"
    return out


def _superlative(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    wordings = ["Which {k} is the {a}?", "What is our {a} {k}?", "Name the {a} {k}.", "Which is the {a} {k} we sell?"]
    out = []
    for i, (adj, (prop, high)) in enumerate(ADJECTIVES.items()):
        for kind in rnd.sample([*KINDS, "Product"], 2):
            word = "product" if kind == "Product" else kind.lower()
            text = wordings[(i + len(out)) % len(wordings)].format(k=word, a=adj)
            out.append(_q("superlative", text, _extreme(cat.of(kind), prop, high)))
    return out


def _top_k(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    wordings = ["List the {n} {a} {ks}.", "Which are the {n} {a} {ks}?", "Show me our {n} {a} {ks}."]
    out = []
    for i, (adj, (prop, high)) in enumerate(ADJECTIVES.items()):
        kind = rnd.choice([*KINDS, "Product"])
        n = rnd.choice([2, 3])
        text = wordings[i % len(wordings)].format(n=["", "one", "two", "three"][n] if i % 2 else n, a=adj,
                                                  ks=PLURAL[kind])
        out.append(_q("top_k", text, _extreme(cat.of(kind), prop, high, n)))
    return out


def _threshold(things: list[Thing], prop: str) -> float:
    values = sorted(t.facts[prop] for t in things)
    return round(values[len(values) // 2] + 0.004, 0 if values[-1] > 20 else 1)


def _filters(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for prop, wordings in UNITS.items():
        for w, wording in enumerate(wordings):
            kind = rnd.choice([*KINDS, "Product"])
            things = cat.of(kind)
            n = _threshold(things, prop)
            below = w in _BELOW
            gold = [(t.iri,) for t in things if (t.facts[prop] < n if below else t.facts[prop] > n)]
            number = f"{n:g}" if n < 1000 else f"{n:,.0f}"
            out.append(_q("filter", f"Which {PLURAL[kind]} {wording.format(n=number)}?", gold))
    return out


def _filter_superlative(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for kind in KINDS:
        things = cat.of(kind)
        n = _threshold(things, "price")
        under = [t for t in things if t.facts["price"] < n]
        out.append(_q("filter_superlative", f"Which is the lightest {kind.lower()} under {n:g} euros?",
                      _extreme(under, "weight", False)))
        over = [t for t in things if t.facts["weight"] > _threshold(things, "weight")]
        out.append(_q("filter_superlative", f"What is the cheapest {kind.lower()} heavier than "
                      f"{_threshold(things, 'weight'):g} kg?", _extreme(over, "price", False)))
    return out


def _dates(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for i, kind in enumerate([*KINDS, "Product"]):
        things = cat.of(kind)
        year = rnd.randrange(2020, 2025)
        after = [(t.iri,) for t in things if int(t.facts["releaseDate"][:4]) > year]
        during = [(t.iri,) for t in things if int(t.facts["releaseDate"][:4]) == year]
        out.append(_q("dates", f"Which {PLURAL[kind]} were released after {year}?", after))
        if during:  # "none" is no result set to score
            out.append(_q("dates", f"Which {PLURAL[kind]} came out in {year}?" if i % 2 else
                          f"List the {PLURAL[kind]} launched during {year}.", during))
    staff = cat.of("Employee")
    out.append(_q("dates", "Which employees joined before 2012?",
                  [(t.iri,) for t in staff if int(t.facts["hireDate"][:4]) < 2012]))
    return out


def _counts(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    wordings = ["How many {ks} do we sell?", "How many {ks} are in the catalogue?", "What is the number of {ks}?"]
    out = [_q("count", wordings[i % 3].format(ks=PLURAL[k]), [(str(len(cat.of(k))),)])
           for i, k in enumerate([*KINDS, "Product"])]
    out.append(_q("count", "How many suppliers are there?", [(str(len(cat.of("Supplier"))),)]))
    out.append(_q("count", "How many people are on the staff?", [(str(len(cat.of("Employee"))),)]))
    for prop, wordings_ in UNITS.items():
        kind = rnd.choice([*KINDS])
        things = cat.of(kind)
        n = _threshold(things, prop)
        gold = str(sum(t.facts[prop] > n for t in things))
        out.append(_q("count_filter", f"How many {PLURAL[kind]} {wordings_[1].format(n=f'{n:g}')}?", [(gold,)]))
    out.append(_q("count_filter", "How many products come with a warranty of 36 months?",
                  [(str(sum(t.facts.get("warrantyMonths") == 36 for t in cat.of("Product"))),)]))
    return out


def _aggregates(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for kind in [*KINDS, "Product"]:
        things = cat.of(kind)
        prices = [t.facts["price"] for t in things]
        weights = [t.facts["weight"] for t in things]
        out.append(_q("aggregate", f"What is the average price of our {PLURAL[kind]}?", [(_num(mean(prices)),)]))
        out.append(_q("aggregate", f"What is the total weight of all {PLURAL[kind]}?", [(_num(sum(weights)),)]))
    out.append(_q("aggregate", "What is the highest price of any laptop?", [(_num(max(t.facts["price"]
                                                                                       for t in cat.of("Laptop"))),)]))
    out.append(_q("aggregate", "What does the cheapest monitor cost?",
                  [(_num(min(t.facts["price"] for t in cat.of("Monitor"))),)]))
    out.append(_q("aggregate", "What is the lowest unit cost of a part?",
                  [(_num(min(t.facts["unitCost"] for t in cat.of("Part"))),)]))
    return out


def _members(cat: Catalogue, prop: str, target: str) -> list[Thing]:
    return [t for t in cat.things.values() if target in t.links.get(prop, [])]


def _groups(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    depts = cat.of("Department")
    sups = cat.of("Supplier")
    staff = [(d.iri, str(len(_members(cat, "worksIn", d.iri)))) for d in depts]
    parts = [(s.iri, str(len(_members(cat, "suppliedBy", s.iri)))) for s in sups]
    cost = [(s.iri, _num(mean(p.facts["unitCost"] for p in _members(cat, "suppliedBy", s.iri)))) for s in sups]
    return [
        _q("group_count", "How many employees work in each department?", staff),
        _q("group_count", "For every department, how many people does it have?", staff),
        _q("group_count", "How many parts does each supplier deliver?", parts),
        _q("group_count", "Give the number of parts per supplier.", parts),
        _q("group_aggregate", "What is the average unit cost of parts per supplier?", cost),
        _q("having", "Which departments have more than 3 employees?",
           [(d,) for d, n in staff if int(n) > 3]),
        _q("having", "Which suppliers deliver more than one part?", [(s,) for s, n in parts if int(n) > 1]),
        _q("having", "Which products are built from at least 3 parts?",
           [(t.iri,) for t in cat.of("Product") if len(t.links["hasPart"]) >= 3]),
        _q("rank_count", "Which department has the most employees?",
           [(d,) for d, n in staff if int(n) == max(int(m) for _, m in staff)]),
        _q("rank_count", "Which supplier delivers the fewest parts?",
           [(s,) for s, n in parts if int(n) == min(int(m) for _, m in parts)]),
    ]


def _negation(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    staff = cat.of("Employee")
    managers = {m for t in staff for m in t.links.get("reportsTo", [])}
    used = {p for t in cat.of("Product") for p in t.links["hasPart"]}
    out = [
        _q("negation", "Which employees have nobody reporting to them?", [(t.iri,) for t in staff
                                                                          if t.iri not in managers]),
        _q("negation", "Which employees report to no one?", [(t.iri,) for t in staff if "reportsTo" not in t.links]),
        _q("negation", "Which departments have no head?", [(d.iri,) for d in cat.of("Department")
                                                            if "headedBy" not in d.links]),
        _q("negation", "Which employees have no phone number?", [(t.iri,) for t in staff if "phone" not in t.facts]),
        _q("negation", "Which parts are used in no product?", [(p.iri,) for p in cat.of("Part") if p.iri not in used]),
    ]
    for kind in KINDS:
        out.append(_q("negation", f"Which {PLURAL[kind]} are sold without a warranty?",
                      [(t.iri,) for t in cat.of(kind) if "warrantyMonths" not in t.facts]))
    return out


def _located(cat: Catalogue, sup: Thing) -> tuple[str, str]:
    city = sup.links["basedIn"][0]
    return city, cat.things[city].links["inCountry"][0]


def _yes_no(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    sup_cities = {_located(cat, s)[0] for s in cat.of("Supplier")}
    for city in cat.of("City"):
        held = city.iri in sup_cities
        out.append(_q("yes_no", f"Is any supplier based in {city.label}?", [("yes" if held else "no",)]))
    for t in rnd.sample(cat.of("Product"), 5):
        n = round(t.facts["price"] + rnd.choice([-150, 150]), -1)
        out.append(_q("yes_no", f"Does the {t.label} cost more than {n:g} euros?",
                      [("yes" if t.facts["price"] > n else "no",)]))
    for t in rnd.sample(cat.of("Employee"), 3):
        dept = rnd.choice(DEPARTMENTS)
        said = cat.things[_iri(dept)].iri in t.links["worksIn"]
        out.append(_q("yes_no", f"Does {t.label} work in {dept}?", [("yes" if said else "no",)]))
    return out


def _several(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for t in rnd.sample(cat.of("Employee"), 5):
        gold = tuple(t.facts[p] for p in ("email", "phone") if p in t.facts)
        out.append(_q("attributes", f"Give the e-mail address and phone number of {t.label}.", [gold]))
    for t in rnd.sample(cat.of("Product"), 5):
        gold = (_num(t.facts["price"]), _num(t.facts["weight"]), t.facts["releaseDate"])
        out.append(_q("attributes", f"What are the price, weight and release date of the {t.label}?", [gold]))
    out.append(_q("attributes", "List every employee of Finance with their job title.",
                  [(t.iri, t.facts["jobTitle"]) for t in _members(cat, "worksIn", _iri("Finance"))]))
    return out


def _value_sets(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    pairs = [("BE", "NL"), ("FR", "DE"), ("PL", "FR")]
    for a, b in pairs:
        countries = {_iri(COUNTRIES[a]), _iri(COUNTRIES[b])}
        sups = [s for s in cat.of("Supplier") if _located(cat, s)[1] in countries]
        out.append(_q("value_set", f"Which suppliers are based in {COUNTRIES[a]} or {COUNTRIES[b]}?",
                      [(s.iri,) for s in sups]))
        parts = [p for p in cat.of("Part") if p.links["suppliedBy"][0] in {s.iri for s in sups}]
        out.append(_q("value_set", f"Which parts come from a supplier in {COUNTRIES[a]} or {COUNTRIES[b]}?",
                      [(p.iri,) for p in parts]))
    return out


def _names(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    staff = cat.of("Employee")
    surnames = [t.label.split()[1] for t in staff]
    for t in rnd.sample(staff, 6):
        first, last = t.label.split()
        if surnames.count(last) > 1:
            continue
        out.append(_q("names", f"What is the e-mail address of Dr {last}?", [(t.facts["email"],)]))
        dept = cat.things[t.links["worksIn"][0]].label
        out.append(_q("names", f"What is the job title of {first} from {dept}?", [(t.facts["jobTitle"],)]))
    return out


def _lookups(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    out = []
    for t in rnd.sample(cat.of("Product"), 4):
        out.append(_q("lookup", f"What is the list price of the {t.label}?", [(_num(t.facts["price"]),)]))
    for p in rnd.sample(cat.of("Part"), 4):
        sup = cat.things[p.links["suppliedBy"][0]]
        out.append(_q("lookup", f"In which country is the supplier of the {p.label} based?",
                      [(_located(cat, sup)[1],)]))
    for t in rnd.sample(cat.of("Employee"), 3):
        if "reportsTo" in t.links:
            out.append(_q("lookup", f"Who does {t.label} report to?", [(t.links["reportsTo"][0],)]))
    return out


def _derived(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    a, b = rnd.sample(cat.of("Laptop"), 2)
    return [
        _q("derived", f"What is the price difference between the {a.label} and the {b.label}?", None),
        _q("derived", "What share of our products come with a warranty?", None),
        _q("derived", "What percentage of employees work in Sales?", None),
        _q("derived", f"How much heavier is the {a.label} than the {b.label}?", None),
        _q("derived", "What is the ratio of laptops to monitors?", None),
    ]


def _places_and_order(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    """Places past the first ("the second cheapest", "the 2nd to 4th heaviest"), lists in an asked
    order (scored as sets), and groups ranked by an average."""
    out = []
    for kind in KINDS:
        things = sorted(cat.of(kind), key=lambda t: t.facts["price"])
        out.append(_q("places", f"Which is the second cheapest {kind.lower()}?", [(things[1].iri,)]))
        heavy = sorted(cat.of(kind), key=lambda t: -t.facts["weight"])
        out.append(_q("places", f"List the 2nd to 3rd heaviest {PLURAL[kind]}.", [(t.iri,) for t in heavy[1:3]]))
        out.append(_q("sorted", f"List the {PLURAL[kind]} sorted by width, widest first.",
                      [(t.iri,) for t in cat.of(kind)]))
    sups = cat.of("Supplier")
    cost = {s.iri: mean(p.facts["unitCost"] for p in _members(cat, "suppliedBy", s.iri)) for s in sups}
    out.append(_q("rank_total", "Which supplier has the highest average unit cost?",
                  [(s,) for s, v in cost.items() if v == max(cost.values())]))
    out.append(_q("rank_total", "Which supplier has the lowest average unit cost?",
                  [(s,) for s, v in cost.items() if v == min(cost.values())]))
    out.append(_q("having_total", "Which suppliers have an average unit cost above 30 euros?",
                  [(s,) for s, v in cost.items() if v > 30]))
    out.append(_q("having_total", "Which suppliers have an average unit cost under 25 euros?",
                  [(s,) for s, v in cost.items() if v < 25]))
    return out


MAKERS: list[Callable[[Catalogue, random.Random], list[dict[str, Any]]]] = [
    _lookups, _superlative, _top_k, _filters, _filter_superlative, _dates, _counts, _aggregates, _groups,
    _negation, _yes_no, _several, _value_sets, _names, _derived, _places_and_order]


def other_wordings(cat: Catalogue, rnd: random.Random) -> list[dict[str, Any]]:
    """The same kinds asked in wordings the development set does not use (written once, before any
    change was measured on them): how far the readings hold beyond the wordings they were built on."""
    out: list[dict[str, Any]] = []
    laptops, monitors, printers, headsets = (cat.of(k) for k in ("Laptop", "Monitor", "Printer", "Headset"))
    products = cat.of("Product")
    out.append(_q("superlative", "What's the priciest monitor?", _extreme(monitors, "price", True)))
    out.append(_q("superlative", "Which laptop weighs the least?", _extreme(laptops, "weight", False)))
    out.append(_q("superlative", "Which printer costs the most?", _extreme(printers, "price", True)))
    out.append(_q("superlative", "Tell me the most recently released headset.", _extreme(headsets, "releaseDate", True)))
    out.append(_q("top_k", "Give me the top 3 most expensive products.", _extreme(products, "price", True, 3)))
    out.append(_q("top_k", "Which are the heaviest two printers?", _extreme(printers, "weight", True, 2)))
    lo, hi = 300, 900
    out.append(_q("filter", f"Which monitors cost between {lo} and {hi} euros?",
                  [(t.iri,) for t in monitors if lo <= t.facts["price"] <= hi]))
    out.append(_q("filter", "Show laptops cheaper than €1,000.", [(t.iri,) for t in laptops if t.facts["price"] < 1000]))
    out.append(_q("filter", "Which headsets weigh under 0.3 kg?", [(t.iri,) for t in headsets if t.facts["weight"] < 0.3]))
    out.append(_q("filter", "List printers wider than 50 centimeters.",
                  [(t.iri,) for t in printers if t.facts["width"] > 50]))
    out.append(_q("dates", "Which laptops were launched before 2021?",
                  [(t.iri,) for t in laptops if int(t.facts["releaseDate"][:4]) < 2021]))
    out.append(_q("dates", "Which employees were hired after 2020?",
                  [(t.iri,) for t in cat.of("Employee") if int(t.facts["hireDate"][:4]) > 2020]))
    out.append(_q("count", "How many headsets are there in our range?", [(str(len(headsets)),)]))
    out.append(_q("count", "What's the total number of suppliers?", [(str(len(cat.of("Supplier"))),)]))
    out.append(_q("count_filter", "How many monitors are priced above 500 euros?",
                  [(str(sum(t.facts["price"] > 500 for t in monitors)),)]))
    out.append(_q("aggregate", "What is the mean weight of the headsets?",
                  [(_num(mean(t.facts["weight"] for t in headsets)),)]))
    out.append(_q("aggregate", "What is the maximum price among printers?",
                  [(_num(max(t.facts["price"] for t in printers)),)]))
    out.append(_q("aggregate", "What do all our monitors cost together?",
                  [(_num(sum(t.facts["price"] for t in monitors)),)]))
    out.append(_q("negation", "Which laptops don't have a warranty?",
                  [(t.iri,) for t in laptops if "warrantyMonths" not in t.facts]))
    out.append(_q("negation", "Which departments lack a head?",
                  [(d.iri,) for d in cat.of("Department") if "headedBy" not in d.links]))
    staff = cat.of("Employee")
    managers = {m for t in staff for m in t.links.get("reportsTo", [])}
    out.append(_q("negation", "Who manages nobody?", [(t.iri,) for t in staff if t.iri not in managers]))
    sup_cities = {_located(cat, s)[0] for s in cat.of("Supplier")}
    for city in rnd.sample(cat.of("City"), 3):
        out.append(_q("yes_no", f"Do we have a supplier in {city.label}?", [("yes" if city.iri in sup_cities else "no",)]))
    t = rnd.choice(laptops)
    out.append(_q("yes_no", f"Is the {t.label} heavier than 2 kg?", [("yes" if t.facts["weight"] > 2 else "no",)]))
    p = rnd.choice(staff)
    out.append(_q("attributes", f"What are the email address and job title of {p.label}?",
                  [(p.facts["email"], p.facts["jobTitle"])]))
    q = rnd.choice(products)
    out.append(_q("attributes", f"Show the weight and width of the {q.label}.",
                  [(_num(q.facts["weight"]), _num(q.facts["width"]))]))
    first, last = p.label.split()
    out.append(_q("names", f"Which department does Dr {last} work in?", [(p.links["worksIn"][0],)]))
    out.append(_q("group_count", "Number of employees per department?",
                  [(d.iri, str(len(_members(cat, "worksIn", d.iri)))) for d in cat.of("Department")]))
    out.append(_q("derived", "By how much does the most expensive laptop exceed the cheapest one?", None))
    out.append(_q("derived", "What fraction of products are headsets?", None))
    for i, q_ in enumerate(out, 1):
        q_["id"] = f"cat-other-{i:03d}"
    return out
