"""hfcompat.pipeline.cache.Cache: a key is kept the second time it is offered, and the cache stays bounded."""

from hfcompat.pipeline.cache import Cache


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
