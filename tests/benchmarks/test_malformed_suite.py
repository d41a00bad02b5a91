"""The generated malformed-input suite (issue 16, item 3; benchmarks/malformed.py): every bad-file kind
through every command that reads a file, against a workspace holding text, KG and ontology content.
All kinds but the 24 MB ones run here; `polyrag bench reliability` runs those too."""

from __future__ import annotations

from collections import Counter

import pytest

from benchmarks.malformed import INPUTS, generate, run_cases, verdict


@pytest.mark.slow
def test_every_malformed_input_is_one_located_error_and_changes_nothing(tmp_path):
    cases = generate()
    kinds = Counter(c.kind for c in cases)
    # the reach of the generator: every input command, every kind of damage
    assert {c.command for c in cases} == {name for name, _, _ in INPUTS}
    assert {"missing", "empty", "binary", "not UTF-8", "truncated", "broken record", "a directory",
            "a symlink loop", "duplicate ids"} <= set(kinds)
    rows = run_cases(cases, tmp_path)
    failed = [f"{r['command']} · {r['format']} · {r['kind']}: {r['why']}" for r in rows if not r["held"]]
    assert not failed, f"{len(failed)} of {len(rows)} cases failed:\n" + "\n".join(failed)


def test_the_verdict_can_fail(tmp_path):
    case = next(c for c in generate() if c.kind == "truncated" and c.fmt == "turtle")
    path = tmp_path / "input.ttl"
    good = f"error: {path}, line 3: invalid TURTLE: column 4: unexpected end of file\n"
    assert verdict(case, 2, good, path, changed=False) is None
    assert verdict(case, 0, "", path, changed=False) == "accepted (exit 0)"
    assert verdict(case, 2, good, path, changed=True) == "the workspace changed"
    assert verdict(case, 2, f"error: {path}: invalid TURTLE\n", path, changed=False).startswith("no line")
    assert verdict(case, 2, "error: bad input\n", path, changed=False).startswith("the file is not named")
    assert verdict(case, None, "Traceback (most recent call last):\nValueError: x\n", path,
                   changed=False).startswith("traceback")
