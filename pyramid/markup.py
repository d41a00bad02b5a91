"""Web pages saved as HTML, turned into the plain text every layer reads.

A page's markup says where its lines, list items and table cells are; the reader (and the chunker,
and BM25) read lines. So the page is parsed (the standard library's HTMLParser: tolerant of the
broken markup real pages have) into text laid out as a person reading the page would see it:

* a block (paragraph, heading, div, list item, table row, definition term or description) starts a
  line; `<br>` breaks one; list items get a "- " mark;
* a table row is written "| a | b |" (the reader takes a two-cell row as label | value);
* a definition list's term and description fall on lines of their own, term above description;
* script, style, head metadata and comments are dropped; entities are decoded.

    looks_like_html(text) -> bool
    html_to_text(text) -> (text, title)   # title: the first <h1>, else <title>, else ""
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_text", "looks_like_html"]

# A text is taken for HTML when it holds a few tags of HTML's own vocabulary: a stray "<b>" in prose or
# "x < y > z" in a formula stays text.
_TAG = re.compile(r"</?(?:html|body|head|title|p|div|span|br|hr|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tr|td|th|"
                  r"a|b|i|em|strong|section|article|header|footer|nav|main|aside|img|meta|link|script|style)\b[^>]*>",
                  re.IGNORECASE)
MIN_TAGS = 3

_BLOCK = {"p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "h1", "h2", "h3", "h4",
          "h5", "h6", "ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "tr", "li", "dt", "dd", "blockquote",
          "pre", "figure", "figcaption", "address", "form", "fieldset", "caption", "hr"}
_SKIP = {"script", "style", "noscript", "template", "svg"}  # the head's <title> is kept (the page's title)
_CELL = {"td", "th"}


def looks_like_html(text: str) -> bool:
    return len(_TAG.findall(text[:200_000])) >= MIN_TAGS


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.skip = 0
        self.cells: list[str] | None = None  # the current table row's cells
        self.cell: list[str] | None = None
        self.heads: list[bool] = []  # per cell of the row: a header cell
        self.title: list[str] = []
        self.h1: list[str] = []
        self._in: list[str] = []  # "title" / "h1" while inside them

    def _break(self) -> None:
        text = " ".join("".join(self.line).split())
        if text:
            self.lines.append(text)
        self.line = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIP:
            self.skip += 1
            return
        if tag in ("title", "h1"):
            self._in.append(tag)
        if tag == "tr":
            self._break()
            self.cells, self.heads = [], []
        elif tag in _CELL and self.cells is not None:
            self.cell = []
        elif tag == "br":
            self._target().append("\n" if self.cell is None else " ")
            if self.cell is None:
                self._break()
        elif tag in _BLOCK:
            self._break()
            if tag == "li":
                self.line.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self._in and self._in[-1] == tag:
            self._in.pop()
        if tag in _CELL and self.cell is not None and self.cells is not None:
            self.cells.append(" ".join("".join(self.cell).split()))
            self.heads.append(tag == "th")
            self.cell = None
        elif tag == "tr" and self.cells is not None:
            cells = [c for c in self.cells if c]
            if cells:
                self.lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
                if all(self.heads):  # a header row names the columns: a rule under it says so, as in Markdown
                    self.lines.append("|" + "---|" * len(cells))
            self.cells, self.heads = None, []
        elif tag in _BLOCK:
            self._break()

    def _target(self) -> list[str]:
        return self.cell if self.cell is not None else self.line

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if "title" in self._in:
            self.title.append(data)
            return  # the head's title is not page text
        if "h1" in self._in:
            self.h1.append(data)
        self._target().append(data)

    def text(self) -> tuple[str, str]:
        self._break()
        # the page's first heading names it; the head's <title> often adds the site's name ("X | People")
        title = " ".join("".join(self.h1).split()) or " ".join("".join(self.title).split())
        return "\n".join(self.lines), title


def html_to_text(text: str) -> tuple[str, str]:
    """(the page's text, line by line; its title or "")."""
    parser = _Text()
    parser.feed(text)
    parser.close()
    return parser.text()
