"""The command line's own room: every built-in `polyrag` command, grouped by feature.

Each module has `register(app)`; `cli.py` registers these built-ins, then plug-ins found under the
`polyrag.commands` entry-point group (the benchmarks register their `bench` group that way, so no
product code imports them). Command functions parse, call one library function and print; their
imports stay inside them so `polyrag --help` loads neither numpy nor torch.
"""

BUILTINS = ("commands.core", "commands.ontology", "commands.kg", "commands.complete", "commands.serve")
