"""hfcompat.pipeline.cache.Cache: a key is kept the second time it is offered, and the cache stays
bounded; its compiled twin (pipeline/_cache.pyx) does the same on every sequence of calls."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hfcompat import _backend
from hfcompat.pipeline.cache import Cache, cache_class


def test_a_key_is_kept_on_its_second_offer():
    cache = Cache(10)
    cache.offer("once", 1)
    assert "once" not in cache
    cache.offer("once", 1)
    assert cache["once"] == 1


def test_a_full_cache_starts_over_and_follows_the_new_text():
    cache = Cache(3)
    for key in "aabbccddee":
        cache.offer(key, key.upper())
    assert len(cache) <= 3
    assert cache["e"] == "E"  # the most recent repeated key is kept


def test_capacity_zero_keeps_nothing():
    cache = Cache(0)
    for _ in range(3):
        cache.offer("a", 1)
    assert cache == {}


def test_the_bound_holds_over_many_keys():
    cache = Cache(100)
    for key in list(range(5_000)) * 2:
        cache.offer(key, key)
        assert len(cache) <= 100


def test_clear_forgets_the_keys_offered_once():
    cache = Cache(10)
    cache.offer("a", 1)
    cache.clear()
    cache.offer("a", 1)
    assert "a" not in cache


# A call on a cache: ("offer", key) or ("clear", None).
CALLS = st.lists(st.tuples(st.just("offer"), st.sampled_from("abcdefg")) | st.just(("clear", None)), max_size=60)


@given(capacity=st.integers(0, 4), calls=CALLS)
def test_the_compiled_cache_keeps_what_the_reference_keeps(capacity, calls):
    """Random offers and clears: after each call both caches hold the same entries."""
    compiled = pytest.importorskip("hfcompat.pipeline._cache", reason="the compiled core is not built")
    caches = [Cache(capacity), compiled.Cache(capacity)]
    for number, (call, key) in enumerate(calls):
        for cache in caches:
            if call == "clear":
                cache.clear()
            else:
                cache.offer(key, (key, number))
        assert dict(caches[0]) == dict(caches[1])


def test_each_backend_makes_its_own_cache():
    """The encoders' caches are the backend's: the compiled twin's, or the reference."""
    with _backend.use(_backend.PYTHON):
        assert cache_class() is Cache
    if _backend.COMPILED in _backend.available():
        with _backend.use(_backend.COMPILED):
            assert cache_class() is not Cache and cache_class().__module__ == "hfcompat.pipeline._cache"
