"""The K²RAG chunker: property tests on the window arithmetic, then on real tokenised text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid.chunker import Chunker, windows
from pyramid.corpus import Document
from pyramid.errors import ConfigError


@st.composite
def sizes(draw):
    size = draw(st.integers(1, 64))
    overlap = draw(st.integers(0, size - 1))
    n = draw(st.integers(0, 400))
    return n, size, overlap


@given(sizes())
def test_windows_cover_every_token_with_exact_overlaps(args):
    n, size, overlap = args
    ws = windows(n, size, overlap)
    if n == 0:
        assert ws == []
        return
    covered = set()
    for s, e in ws:
        assert 0 <= s < e <= n
        assert e - s <= size
        covered.update(range(s, e))
    assert covered == set(range(n))                       # every token covered
    assert ws[0][0] == 0 and ws[-1][1] == n                # first starts at 0, last ends at n
    for (s1, e1), (s2, _e2) in zip(ws, ws[1:]):
        assert e1 - s2 == overlap                          # consecutive windows share exactly O tokens
        assert e1 - s1 == size                             # only the last window may be short
    s_last, e_last = ws[-1]
    assert e_last - s_last > (overlap if len(ws) > 1 else 0)  # the last window adds new tokens


@pytest.mark.parametrize("size,overlap", [(0, 0), (10, 10), (10, 11), (5, -1)])
def test_windows_reject_bad_settings(size, overlap):
    with pytest.raises(ConfigError, match="overlap"):
        windows(100, size, overlap)


words = st.lists(st.sampled_from(["alpha", "Beta", "gamma-ray", "Dr.", "café", "42", "x", "naïve", "——", "日本"]),
                 min_size=0, max_size=300)


@settings(max_examples=60, deadline=None)
@given(words, st.integers(4, 40), st.data())
def test_chunks_of_real_text_follow_the_windows(tokenizer, ws, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    text = " ".join(ws)
    chunker = Chunker(tokenizer, size, overlap)
    chunks = chunker.chunk(Document("d", text))
    enc = tokenizer.encode(text, add_special_tokens=False)
    n = len(enc.ids)
    assert [c.n_tokens for c in chunks] == [e - s for s, e in windows(n, size, overlap)]
    for c in chunks:
        assert c.text == text[c.start_char:c.end_char]
        assert chunker.count_tokens(c.text) == c.n_tokens   # a chunk re-tokenises to its own size
        assert c.id == f"d#{c.index}"
    if chunks:
        assert chunks[0].start_char == enc.offsets[0][0]
        assert chunks[-1].end_char == enc.offsets[-1][1]


def test_chunker_does_not_truncate_long_documents():
    # MiniLM's tokenizer.json truncates at 128 tokens; the chunker must still see the whole document.
    from tokenizers import Tokenizer

    from pyramid.embeddings import default_model_dir

    raw = Tokenizer.from_file(str(default_model_dir() / "tokenizer.json"))
    text = " ".join(f"word{i}" for i in range(2000))
    chunks = Chunker(raw, 256, 20).chunk(Document("long", text))
    assert chunks[-1].text.endswith("word1999")
    assert len(chunks) > 5
