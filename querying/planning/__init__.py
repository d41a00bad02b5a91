"""Question → candidate readings → the best one's QueryPlan (Query_onto, plan mode).

Understanding by method, not by wording. Nothing here keys on how a question is phrased:

1. **Link** (`anchors.py`). The label index finds the instances the question names; the value index
   finds values of datatype properties ("mechatronics", a research interest). These are the anchors.
2. **Enumerate** (`paths.py`, `enumerate.py`, `rankings.py`). From the schema alone: for every
   anchor instance, every class it joins through a path of one or two object properties (either
   direction, domains and ranges permitting), and every datatype property of its class (an
   attribute); for every anchor value, the classes that hold it. Each reading also has a counting
   form. With two anchors, a reading that keeps both. The attributes of the things one step from an
   anchor whose kind the question names ("the number to ring for the *site* that runs X").
2½. **Keep** (`asked.py`). Of the readings, those that answer what the question asks: the class it
   asks for by name, a thing for "which <noun>", a time for "when", someone for "who", a place for
   "where", the relation it names by its words, a path through every kind of thing it names; none left,
   the question is passed down with the reason.
3. **Put in words and score** (`scoring.py`, with the question's cues from `cues.py`). Each reading
   is written as a short question built from the schema's own names ("X works for which faculty?",
   "what is the credit value of X?", "how many staff works for X?"), anchors as placeholders; the
   question, its anchors replaced the same way, is compared with every reading by embedding cosine
   (MiniLM). Longer paths pay a little.
4. **Evidence** (`evidence.py`). An option list is evidence: the class its members link to is the
   likely answer class. The best few readings are run (read-only, through the layer): a reading with
   no rows, or whose rows support none of the options, falls back; one whose answers are exactly of
   the class it asks for (not of a subclass that the schema only files under it) gains a little.
5. **The model** (`choice.py`) picks among the top readings, written out in full, only when they are
   too close to call (`ontology.reading_margin`) — a small constrained choice; otherwise no model call.

`planner.py`'s `ReadingPlanner` runs the stages in this order; every reading considered, its score and
its evidence are in `PlanDraft.decisions` (the trace). The scoring weights are in `weights.py`.
"""
