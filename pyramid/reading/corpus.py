"""One reading of the corpus's pages (pyramid.reading.page_reader), shared by the build's layers.

    readings = read_corpus(ws, schema, embedder, docs, progress)   # doc id -> PageReading

The parser's part (segments: fields and the values of sentences) is the slow one and depends on the
page alone: it is cached per document in `WS/reading/segments.sqlite`, keyed by the text's hash and
`SEGMENT_VERSION`, committed every few pages, so a stopped build resumes where it was and the KG and
ontology steps of one build never parse a page twice. What the corpus teaches (names typed by their
class, head words, example values) and the linking are recomputed over every page each time: they
are quick (about a second per 300 pages), and a new page may change how others read.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict

from pyramid.corpus import Document
from pyramid.embeddings import Embedder
from pyramid.normalise import codes_in
from pyramid.progress import NullProgress, Progress
from pyramid.reading.english import FUNCTION_WORDS, NAME_JOINERS, PERSON_CUES, TITLE_NAME_JOINERS, VERBS
from pyramid.reading.page import Page, PageReading, Segment
from pyramid.reading.page_reader import PageReader
from pyramid.sqlite import DisposableSQLite
from pyramid.vocab import Vocab
from pyramid.workspace import Workspace

SEGMENT_VERSION = "34"   # bump when PageReader.segment reads a page differently
COMMIT_EVERY = 50       # pages parsed between two commits of the cache (what a stop can lose)
MAX_TITLE_WORDS = 12    # a first line this short names the page when it has no title
MIN_TITLE_MENTIONS = 1  # a name in a headline is the page's when the page says it again (the title said it once)
_TITLE_SEPARATORS = frozenset(":|–—")  # "The Lantern: your questions answered"
CACHE = "reading/segments.sqlite"
_CREATE = "CREATE TABLE IF NOT EXISTS segments (doc_id TEXT PRIMARY KEY, key TEXT NOT NULL, page TEXT NOT NULL)"

ReadingsProvider = Callable[[], dict[str, PageReading]]


def title_of(doc: Document) -> str:
    """What the page is about: the name its title carries (`name_in_title`), else a short first line,
    else its id."""
    title = str(doc.metadata.get("title") or "").strip()
    if title:
        return name_in_title(title, doc.text)
    first = next((ln.strip() for ln in doc.text.splitlines() if ln.strip()), "")
    return name_in_title(first, doc.text) if 0 < len(first.split()) <= MAX_TITLE_WORDS else doc.id


def name_in_title(title: str, text: str) -> str:
    """The name a title carries. A title that is a name ("Prof. Alice Chen", "Department of Physics")
    is itself; one written as a phrase or a headline ("Plan your visit to Brindle Arena", "The Lantern:
    your questions answered", "Date set for the Harvest Fair") carries the name the page says again:
    the longest run of capitalised words in it the text says again. A title's first word
    alone is no such run (sentence case capitalises it), and a title with none stays as it is, as does
    one with a code in it (it names what the code names: "AAE1001 Introduction to …") or a person's
    title first ("Dr CHU Kai fung")."""
    first = title.split(maxsplit=1)[0].lower().rstrip(".") if title.split() else ""
    if codes_in(title) or first in PERSON_CUES or "://" in title:
        return title  # a code's page, a person's name after a title (lower-case particles and all), a link
    body = text.strip()
    body = body[len(title):] if body.startswith(title) else body  # a page that opens with its title
    words = re.findall(r"[^\W_][\w'’.&-]*|[:|–—]", title)
    phrase = title not in body or any(w in _TITLE_SEPARATORS or (w.islower() and w not in FUNCTION_WORDS | NAME_JOINERS)
                                      for w in words)
    if not phrase:
        return title
    if not any(w in _TITLE_SEPARATORS or w.islower() for w in words):
        # a title-cased call to the reader ("Visit Northgate Common") names what follows its verb
        rest = title.split(maxsplit=1)
        if len(rest) == 2 and rest[0].lower() in VERBS and title not in body and \
                body.count(rest[1]) >= MIN_TITLE_MENTIONS:
            return rest[1]
    runs, run = [], []
    for i, w in enumerate(words + [":"]):
        if w[:1].isupper() or w[:1].isdigit() and run or (run and w in TITLE_NAME_JOINERS):
            run.append((i, w))
            continue
        while run and run[-1][1] in TITLE_NAME_JOINERS:  # "Summer Fair of" ends at its last capitalised word
            run.pop()
        # the first word alone is capitalised by sentence case, unless a separator sets it off ("Northgate:")
        if run and not (len(run) == 1 and run[0][0] == 0 and w not in _TITLE_SEPARATORS):
            runs.append(" ".join(w for _, w in run))
        run = []
    # the one the page says most often ("Ann Lee — Department of Physics" is Ann Lee's page when it says her
    # name more than the department's); of those said as often, the first (a page's own name comes before
    # its site's or section's), then the longest; an honorific alone ("(Prof.)") names nobody
    # (a run joined at "in" is one name where the page says it whole, "Readings in Physical Chemistry"; else its
    # pieces are, as the page says them beside it: "Sentiero Attrezzato Rosalp in July")
    mentions = [(r, body.count(r)) for r in runs]
    mentions += [(piece, body.count(piece) - body.count(r)) for r in runs if " in " in r
                 for piece in r.split(" in ") if len(piece.split()) > 1]
    said = [(k, -n, len(r), r) for n, (r, k) in enumerate(mentions)
            if k >= MIN_TITLE_MENTIONS and r.lower().rstrip(".") not in PERSON_CUES]
    return max(said, default=(0, 0, 0, title))[3]


def _key(doc: Document, title: str) -> str:
    return hashlib.sha256(f"{SEGMENT_VERSION}\x00{title}\x00{doc.content_hash}".encode()).hexdigest()[:20]


class SegmentCache:
    """The parser's output per page; a cache, so a damaged file is set aside and rebuilt, never fatal."""

    def __init__(self, ws: Workspace) -> None:
        self.sql = DisposableSQLite(ws.root / CACHE, _CREATE, probe="SELECT doc_id, key, page FROM segments LIMIT 1",
                                    what="page-reading cache")

    def get(self, doc_id: str, key: str) -> Page | None:
        row = self.sql.run(lambda db: db.execute("SELECT key, page FROM segments WHERE doc_id = ?",
                                                 (doc_id,)).fetchone())
        if row is None or row[0] != key:
            return None
        try:
            d = json.loads(row[1])
            return Page(d["title"], [Segment(**s) for s in d["segments"]], d["sentences"])
        except (ValueError, KeyError, TypeError):  # a row edited by hand or from another version: read again
            return None

    def put(self, doc_id: str, key: str, page: Page) -> None:
        data = json.dumps({"title": page.title, "segments": [asdict(s) for s in page.segments],
                           "sentences": page.sentences}, ensure_ascii=False)
        self.sql.run(lambda db: db.execute("INSERT OR REPLACE INTO segments VALUES (?, ?, ?)", (doc_id, key, data)))

    def commit(self) -> None:
        self.sql.run(lambda db: db.commit())

    def prune(self, keep: set[str]) -> None:
        """Forget pages no longer in the corpus."""
        def prune(db) -> None:
            ids = [r[0] for r in db.execute("SELECT doc_id FROM segments")]
            db.executemany("DELETE FROM segments WHERE doc_id = ?", [(i,) for i in ids if i not in keep])
            db.commit()

        self.sql.run(prune)


def read_corpus(ws: Workspace, schema, embedder: Embedder, docs: Sequence[Document],
                progress: Progress | None = None) -> dict[str, PageReading]:
    """Every document read against the schema: its main entity, class and facts."""
    progress = progress or NullProgress()
    titles = {d.id: title_of(d) for d in docs}
    reader = PageReader(Vocab.from_schema(schema), embedder, titles=titles.values())
    cache = SegmentCache(ws)
    pages: dict[str, Page] = {}
    todo = []
    for d in docs:
        page = cache.get(d.id, _key(d, titles[d.id]))
        if page is None:
            todo.append(d)
        else:
            pages[d.id] = page
    if todo:
        task = progress.task("reading pages (parser)", len(todo))
        for n, d in enumerate(todo, 1):
            pages[d.id] = reader.segment(titles[d.id], d.text)
            cache.put(d.id, _key(d, titles[d.id]), pages[d.id])
            if n % COMMIT_EVERY == 0:
                cache.commit()
            task.advance()
        cache.commit()
        task.done()
    cache.prune(set(titles))
    ordered = [pages[d.id] for d in docs]
    reader.study(ordered)  # names, values, then what each class's titles look like
    task = progress.task("linking pages to the schema", len(docs))
    out = dict(zip((d.id for d in docs), reader.link_all(ordered, task.advance)))
    task.done()
    return out


def readings_provider(ws: Workspace, schema_of: Callable[[], object | None], embedder: Embedder,
                      docs_of: Callable[[], Sequence[Document]], progress: Progress) -> ReadingsProvider:
    """The corpus's readings, computed on the first call and kept for the next (one pass per build).
    With no schema (or no classes in it) there is nothing to read against: {}."""
    memo: list[dict[str, PageReading]] = []

    def get() -> dict[str, PageReading]:
        if not memo:
            schema = schema_of()
            has_classes = schema is not None and bool(getattr(schema, "classes", None))
            memo.append(read_corpus(ws, schema, embedder, docs_of(), progress) if has_classes else {})
        return memo[0]

    return get
