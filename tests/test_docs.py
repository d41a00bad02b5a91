"""The documentation: the generated pages are what the code says, every command and setting is in
them, the README stays a front door (≤ 200 lines), and `mkdocs build` makes the site."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)


def test_the_generated_pages_are_up_to_date():
    done = _run("docs/generate.py", "--check")
    assert done.returncode == 0, done.stderr


def test_every_setting_and_command_is_documented():
    import typer

    import cli
    from pyramid.config import Settings

    config = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for section, sfield in Settings.model_fields.items():
        for key in sfield.annotation.model_fields:
            assert f"POLYRAG_{section.upper()}__{key.upper()}" in config, f"{section}.{key}"

    pages = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    missing = []

    def walk(cmd, path):
        if hasattr(cmd, "commands"):
            for name, sub in cmd.commands.items():
                walk(sub, [*path, name])
        elif f"## `polyrag {' '.join(path)}`" not in pages:
            missing.append(" ".join(path))

    walk(typer.main.get_command(cli.app), [])
    assert not missing
    assert "## `polyrag kg migrate`" in pages and "## `polyrag mcp`" in pages


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    text = "\n".join(lines)
    assert "make demo" in text and "make test" in text and "make docs" in text


def test_mkdocs_builds_the_site(tmp_path):
    done = _run("-m", "mkdocs", "build", "--site-dir", str(tmp_path / "site"))
    assert done.returncode == 0, done.stderr[-2000:]
    for page in ("index.html", "commands/index.html", "configuration/index.html", "changelog/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    assert "POLYRAG_KG__BACKEND" in (tmp_path / "site" / "configuration" / "index.html").read_text(encoding="utf-8")
