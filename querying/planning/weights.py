"""The scoring weights, on the scale of a cosine: every one is a measured choice (`polyrag bench
acadchall`), kept in one place. Scores come from the schema's own names, embeddings and the data;
no weight keys on a question set's wording."""

ASKS = 0.5                # × the cosine of the question with what the reading answers with, alone
STEP_COST = 0.03          # per property step beyond the first
MISFIT = 0.1              # × how far a path's domains and ranges miss (1 - its fit)
# the fit of a step to "the C of X" whose declared end is wider than C ("has in its cast" reaches persons,
# "is directed by" directors): its things are C only where the data types them so
NARROWED_FIT = 0.0
COUNT_BONUS = 0.1         # a counting reading of a question that asks for a number
RANK_BONUS = 0.25         # a ranking reading (made only for such a question) over the plain readings
# a value reading of a question whose noun after "which"/"what" is its clause's subject (cues.WHICH_SUBJECT)
# and that names neither the value's property nor its class: that noun acts on X, it is no value of X
UNNAMED_VALUE = 0.2
# A value reading of a "where …?" question that does not name the value's property: values answer
# "where" only when their property says a place or a source ("graduated from", "located in"; English
# marks these with a closed set of prepositions); any other value ("what position") is no place
PLACE = 0.35
RELATION_SAID = 0.02      # a reading that walks a relation the question names whole (a tie-breaker, no more)
NAMED = 0.1               # per class of the reading (or its attribute) that the question names in its own words
# × the share of what the question names that the reading uses (instances weigh 1; a value of
# several words 0.8, of one word 0.15: "part" may be a stored position, but rarely what is meant)
COVER = 0.3
PHRASE_STRENGTH = 0.8     # the weight of a value of several words (or a number beside its property's word)
WORD_STRENGTH = 0.15      # …and of a value of one word
FIRM = 0.5                # an anchor at least this strong may be paired with another, or ranked within
OPTION_CLASS = 0.30       # × share of the options that are of the reading's answer class
SUBCLASS_OPTION = 0.5     # an option of a subclass of the answer class counts this much of one
SCHEMA_WORD = 0.55        # a one-word value span this close to a schema term's words is that term
EMPTY = 0.25              # a reading whose query returns nothing
# the reading that means the question best found nothing, and the one left to answer scored this much less
# before either ran: it answers another question, and the question is passed down (planner._meant_found_nothing).
# Measured on the five development domains (`polyrag bench domain`): the wrong answers it stops lie 0.15–0.31
# below; two right ones at 0.101 and 0.125 stay
MEANT_MARGIN = 0.12
# … where at least this share of the things of the anchor's kind hold that reading's relation (PolyU's
# "published in", held by 2% of the staff, is seldom what "Where does X hold his post?" means)
MEANT_HELD = 0.1
OPTIONS_HIT = 0.15        # its rows support some option / none of them
# × share of its answers that are only filed under the class asked for, through a subclass (a
# department is a FACULTY by PolyU's axiom; had the question meant departments, it would say so, and
# the department reading would win on its words)
SUBCLASS_ONLY = 0.25
# "who …?" / "where …?": a class whose name reads as a person's (a place's) this much less than the likeliest
# class's (cosine with english.PERSON, english.PLACE) is not what is asked for (a clinician, not a medical
# specialty; a town, not a librarian)
LIKENESS_MARGIN = 0.1
# a yes/no question naming a thing its reading does not use ("Does X work for *Y*?") is answered by
# whether Y is among the reading's answers: a reading whose answers are of Y's kind gains this much, a
# value reading (whose answers can never be Y) loses it
POLAR_FIT = 0.15
# …and one that puts the two things the other way round from the question's own relation words ("Is A
# a part of B?" read as "B is part of A") answers another question: it loses this much
POLAR_ORDER = 0.4
# several values asked for by one noun ("all the contact details of X"): the attributes whose words are
# this close to the noun's (cosine), and within this much of the closest one
GROUP_LIKENESS = 0.45
GROUP_MARGIN = 0.15
