"""Reading documents, below both layers that read them (the KG and the ontology import this room,
never each other): English's closed word classes (english.py), words and sentences (sentences.py),
names and the entity a text is about (names.py), triples by English surface rules (rules.py) or by a
dependency parse (parse.py), and the schema-aware reading of pages (page_reader.py and its stages;
corpus.py reads a whole corpus once, cached per page). Nothing here calls a model."""
