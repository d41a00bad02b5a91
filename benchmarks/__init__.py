"""Benchmark commands: each writes a JSON and a markdown report (see `benchmarks.report`)."""
