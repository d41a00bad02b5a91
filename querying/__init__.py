"""Answering questions: the naive text pipelines, the waterfall, and the Answer type."""
