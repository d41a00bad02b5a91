"""LLM providers behind one protocol, plus the client that validates, retries, caches and counts."""

from pyramid.llm.base import Completion, LLMError, LLMProvider, LLMSchemaError, LLMUnavailable, RawReply
from pyramid.llm.client import LLM
from pyramid.llm.factory import make_llm

__all__ = ["LLM", "Completion", "LLMError", "LLMProvider", "LLMSchemaError", "LLMUnavailable", "RawReply",
           "make_llm"]
