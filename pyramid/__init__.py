"""PolyRAG's knowledge pyramid: settings, workspace, providers and the three layers."""

__version__ = "0.1.0"
