"""The LLM client: cache keys, caching, schema validation with bounded retries, accounting.

Uses the scripted provider (canned replies keyed by prompt text)."""

from __future__ import annotations

import pytest

from pyramid.llm.base import LLMSchemaError
from pyramid.llm.cache import LLMCache, cache_key
from pyramid.llm.client import LLM
from pyramid.llm.scripted import ScriptedMiss, ScriptedProvider, Seq
from pyramid.usage import UsageMeter

MSG = [{"role": "user", "content": "What is 2+2?"}]
SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_cache_key_changes_with_every_input():
    base = dict(provider="p", model="m", params={"t": 0}, messages=MSG, schema=SCHEMA)
    k0 = cache_key(**base)
    variants = [dict(provider="q"), dict(model="m2"), dict(params={"t": 1}),
                dict(messages=[{"role": "user", "content": "What is 2+3?"}]),
                dict(messages=[{"role": "system", "content": "x"}, *MSG]),
                dict(schema={**SCHEMA, "required": []}), dict(schema=None)]
    keys = {cache_key(**{**base, **v}) for v in variants}
    assert k0 not in keys and len(keys) == len(variants)
    assert cache_key(**base) == k0  # stable
    # dict ordering inside the schema does not matter
    assert cache_key(**{**base, "schema": dict(reversed(list(SCHEMA.items())))}) == k0


def test_second_call_is_a_cache_hit_and_counted(tmp_path):
    provider = ScriptedProvider({"2+2": {"n": 4}})
    meter = UsageMeter()
    llm = LLM(provider, cache=LLMCache(tmp_path / "llm.sqlite"), meter=meter)
    first = llm.complete(MSG, SCHEMA)
    second = llm.complete(MSG, SCHEMA)
    assert first.parsed == second.parsed == {"n": 4}
    assert not first.cached and second.cached
    assert len(provider.calls) == 1
    assert meter.total.calls == 1 and meter.total.cache_hits == 1
    # the hit costs no tokens now, but remembers what the reply cost when it was made
    assert second.usage.total_tokens == 0 and second.usage.cached_tokens == first.usage.total_tokens > 0
    assert meter.total.cost_tokens == 2 * first.usage.total_tokens
    # a new client on the same file hits too (persisted), a changed schema misses
    llm2 = LLM(provider, cache=LLMCache(tmp_path / "llm.sqlite"))
    assert llm2.complete(MSG, SCHEMA).cached
    llm2.complete(MSG, {**SCHEMA, "properties": {"n": {"type": "number"}}})
    assert len(provider.calls) == 2


def test_invalid_reply_is_retried_then_accepted(tmp_path):
    provider = ScriptedProvider({"2+2": Seq("not json", {"n": "four"}, {"n": 4})})
    llm = LLM(provider, cache=LLMCache(tmp_path / "c.sqlite"), schema_retries=2)
    out = llm.complete(MSG, SCHEMA)
    assert out.parsed == {"n": 4} and out.usage.calls == 3
    # the retries sampled with a higher temperature and a new seed
    assert len(provider.calls) == 3


def test_reply_failing_schema_after_retries_raises_typed_error_and_is_not_cached(tmp_path):
    provider = ScriptedProvider({"2+2": Seq({"n": "four"}, {"m": 1}, {"n": 4})})
    cache = LLMCache(tmp_path / "c.sqlite")
    meter = UsageMeter()
    llm = LLM(provider, cache=cache, meter=meter, schema_retries=1)
    with pytest.raises(LLMSchemaError, match=r"after 2 attempts: reply fails its schema at \(root\): 'n' is a "
                                             r"required property") as info:
        llm.complete(MSG, SCHEMA)
    assert info.value.last_reply == '{"m": 1}'
    assert len(cache) == 0
    assert meter.total.calls == 2          # failed attempts still cost, and are counted


def test_text_replies_are_not_validated_or_retried():
    provider = ScriptedProvider({"2+2": "four"})
    out = LLM(provider, schema_retries=3).complete(MSG)
    assert out.text == "four" and out.parsed is None and len(provider.calls) == 1


def test_scripted_provider_fails_loudly_on_unexpected_or_ambiguous_prompts():
    llm = LLM(ScriptedProvider({"capital": "Paris"}))
    with pytest.raises(ScriptedMiss, match="no scripted reply"):
        llm.complete(MSG)
    llm = LLM(ScriptedProvider({"2+2": "4", "What": "?"}))
    with pytest.raises(ScriptedMiss, match="2 scripted replies"):
        llm.complete(MSG)
    llm = LLM(ScriptedProvider({"2+2": Seq("4")}))
    llm.complete(MSG)
    with pytest.raises(ScriptedMiss, match="used up"):
        llm.complete(MSG, temperature=0.5)  # different params: not a cache hit (no cache here anyway)


def test_meter_scopes_see_only_their_own_calls():
    meter = UsageMeter()
    llm = LLM(ScriptedProvider({"2+2": "4", "3+3": "6"}), meter=meter)
    with meter.scope() as outer:
        llm.complete(MSG)
        with meter.scope() as inner:
            llm.complete([{"role": "user", "content": "3+3"}])
    assert (outer.calls, inner.calls, meter.total.calls) == (2, 1, 2)


def test_nested_scopes_with_equal_usage_close_cleanly():
    meter = UsageMeter()
    with meter.scope() as a:
        with meter.scope() as b:      # both empty, so equal by value
            pass
        llm = LLM(ScriptedProvider({"2+2": "4"}), meter=meter)
        llm.complete(MSG)
    assert (a.calls, b.calls) == (1, 0)
