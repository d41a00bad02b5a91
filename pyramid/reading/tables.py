"""Tables of records: a header row over two or more rows, each row about a thing its first cell names
("Facility | Type | Address" over "Hale Library | library | 4 Mill Lane"). The rows are other things'
records, not the page's fields: what the page says of them is that it relates to each, under the first
column's header ("Stop for | …": the route stops for each). Their other cells are left to the things'
own pages. A two-column list of labels and values ("Email | ann@x.org") is no such table: its first
cells name no things."""

from __future__ import annotations

from collections.abc import Callable

from pyramid.reading.page import Segment

MIN_ROWS = 2          # a header over one row is a record laid out across (pyramid.reading.segments)
MIN_COLUMNS = 2
MAX_HEADER_WORDS = 5  # a header cell is a short label
THING_SHARE = 0.5     # at least this share of the first cells name things


def _cells(line: str) -> list[str] | None:
    """A row's cells ("a | b", "| a | b |"); None for a line that is no row."""
    text = line.strip()
    if "|" not in text:
        return None
    return [c.strip() for c in text.strip("|").split("|")]


def _rule(line: str) -> bool:
    """A Markdown table's rule line ("|---|:--|")."""
    text = line.strip()
    return bool(text) and "-" in text and set(text) <= set("|-: ")


def _blocks(lines: list[str]) -> list[tuple[list[int], list[list[str]]]]:
    """Runs of consecutive rows with one number of cells (a rule line inside a run is skipped): each run's
    line numbers and cells."""
    out: list[tuple[list[int], list[list[str]]]] = []
    run: list[int] = []
    rows: list[list[str]] = []
    for i, line in enumerate([*lines, ""]):
        if run and _rule(line):
            run.append(i)
            continue
        cells = _cells(line) if i < len(lines) else None
        if cells is not None and len(cells) >= MIN_COLUMNS and (not rows or len(cells) == len(rows[0])):
            run.append(i)
            rows.append(cells)
            continue
        if rows:
            out.append((run, rows))
        run, rows = ([i], [cells]) if cells is not None and len(cells) >= MIN_COLUMNS else ([], [])
    return out


def record_tables(lines: list[str], names_thing: Callable[[str], bool], only_class_words: Callable[[str], bool],
                  names_label: Callable[[str], bool] = lambda _: False) -> tuple[list[Segment], set[int]]:
    """The page's tables of records: for each, the first column's names as one list under its header, and
    the numbers of the lines the table takes (read no further). A header that only says the cells are names
    ("Name") says nothing of how the page relates to them: the short line just above the table, its heading
    ("Faculty directory"), says it, where there is one."""
    out: list[Segment] = []
    taken: set[int] = set()
    for numbers, rows in _blocks(lines):
        header, body = rows[0], rows[1:]
        if len(body) < MIN_ROWS or not all(c and len(c.split()) <= MAX_HEADER_WORDS for c in header):
            continue
        # names of things, not labels: "Department | Computing" names a class's word alone
        names = [r[0] for r in body if r[0]]
        things = [n for n in names if names_thing(n) and not only_class_words(n)]
        if len(things) < THING_SHARE * len(body):
            continue
        label = header[0]
        above = lines[numbers[0] - 1].strip().rstrip(":") if numbers[0] > 0 else ""
        if names_label(label) and above and len(above.split()) <= MAX_HEADER_WORDS and _cells(above) is None:
            label = above
        out.append(Segment(label, "; ".join(dict.fromkeys(names)), "field"))
        taken.update(numbers)
    return out, taken
