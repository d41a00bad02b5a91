"""The schema with the accepted proposals applied, checked by a DL reasoner before apply writes it.

HermiT, the OWL 2 DL reasoner that owlready2 ships (its jar and its Java launcher settings), run on
the schema as N-Triples in a child process with a time limit. A proposal can make the schema
inconsistent, or make a class unsatisfiable (equivalent to owl:Nothing: no individual can ever be
in it) — a new property's domain that an existing restriction forces onto a class declared disjoint
with it, say. Only what the proposals introduce blocks an apply: problems the schema already had are
reported, not held against them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

NOTHING = "http://www.w3.org/2002/07/owl#Nothing"


@dataclass
class DLReport:
    consistent: bool = True
    unsatisfiable: list[str] = field(default_factory=list)   # class IRIs
    seconds: float = 0.0
    output: str = ""


class ReasonerUnavailable(Exception):
    """No Java runtime, or HermiT did not finish: the check cannot be made."""


def hermit(nt_lines: list[str], *, timeout_s: float = 120.0) -> DLReport:
    """Classify the ontology of `nt_lines` (N-Triples) with HermiT."""
    import time

    import owlready2
    from owlready2 import reasoning

    java = owlready2.JAVA_EXE if shutil.which(owlready2.JAVA_EXE) else shutil.which("java")
    if not java:
        raise ReasonerUnavailable("no Java runtime (java) for HermiT: install a JRE (Debian: default-jre-headless)")
    with tempfile.NamedTemporaryFile("w", suffix=".nt", delete=False, encoding="utf-8") as tmp:
        tmp.write("\n".join(nt_lines) + "\n")
    cmd = [java, f"-Xmx{reasoning.JAVA_MEMORY}M", "-cp", reasoning._HERMIT_CLASSPATH,
           "org.semanticweb.HermiT.cli.CommandLine", "-c", "-O", "-D", "-I", f"file://{tmp.name}"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise ReasonerUnavailable(f"HermiT did not finish within {timeout_s:g} s") from None
    finally:
        os.unlink(tmp.name)
    seconds = round(time.perf_counter() - start, 2)
    output = (proc.stdout or "") + (proc.stderr or "")
    if proc.returncode != 0:
        if "Inconsistent ontology" in output or "inconsistent" in output.lower():
            return DLReport(consistent=False, seconds=seconds, output=output[-2000:])
        raise ReasonerUnavailable(f"HermiT failed (exit {proc.returncode}): {output.strip()[-300:]}")
    unsat = set()
    for _relation, iris in reasoning._HERMIT_RESULT_REGEXP.findall(output):
        names = iris[1:-1].split("> <")
        if NOTHING in names:
            unsat.update(n for n in names if not n.startswith("http://www.w3.org/2002/07/owl#"))
    return DLReport(consistent=True, unsatisfiable=sorted(unsat), seconds=seconds, output=output[-2000:])


def introduced(before: DLReport, after: DLReport) -> list[str]:
    """What `after` has wrong that `before` had not, in words; empty when nothing."""
    problems = []
    if before.consistent and not after.consistent:
        problems.append("the schema becomes inconsistent (no model satisfies it)")
    new = [c for c in after.unsatisfiable if c not in before.unsatisfiable]
    if new:
        problems.append("unsatisfiable: " + ", ".join(c.rsplit("#", 1)[-1].rsplit("/", 1)[-1] for c in new)
                        + " (equivalent to owl:Nothing: no individual can be in them)")
    return problems
