"""The bounded result caches of the encoders (words, pieces): what they keep, and when they forget.

HF's caches fill up and then refuse: after 10,000 English words a Japanese text misses on every
piece for the rest of the process. Here a key is admitted the second time it is computed, so
the many strings met only once (long unspaced runs) do not crowd out the repeated ones, and a
full cache starts over, so it follows the text being encoded now.
"""

from __future__ import annotations

from typing import Any, Hashable

from .. import _backend

_backend.load("cache")  # the compiled twin, when it was built (what the compiled loops offer to)


class Cache(dict):
    """key -> computed value, at most `capacity` entries; read it as a dict, fill it by `offer`."""

    def __init__(self, capacity: int):
        super().__init__()
        self.capacity = capacity
        self._computed_once: set = set()

    def offer(self, key: Hashable, value: Any) -> None:
        """Keep `value` if `key` was computed before; a full cache is emptied first."""
        if key not in self._computed_once:
            if len(self._computed_once) >= self.capacity:
                self._computed_once.clear()
            self._computed_once.add(key)
            return
        if len(self) >= self.capacity:
            super().clear()
        if self.capacity > 0:
            self[key] = value

    def clear(self) -> None:
        """Forget every entry and every key computed once."""
        super().clear()
        self._computed_once.clear()


def cache_class() -> type[Cache]:
    """The Cache of the backend in use: the compiled twin's, or this module's."""
    compiled: type[Cache] | None = None if _backend.cache is None else _backend.cache.Cache
    return compiled or Cache
