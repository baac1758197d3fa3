# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `Cache` in `cache.py` (the reference: the same constructor, methods and
admission rule), so that the compiled loops of `_pieces.pyx` offer a piece's entry with a C call."""

from cpython.dict cimport PyDict_Clear, PyDict_SetItem, PyDict_Size

__all__ = ["Cache"]  # the entry point with a twin


cdef class Cache(dict):
    """key -> computed value, at most `capacity` entries; read it as a dict, fill it by `offer`."""

    def __init__(self, Py_ssize_t capacity) -> None:
        self.capacity = capacity
        self.computed_once = set()

    cpdef offer(self, object key, object value):
        """Keep `value` if `key` was computed before; a full cache is emptied first."""
        if key not in self.computed_once:
            if len(self.computed_once) >= self.capacity:
                self.computed_once.clear()
            self.computed_once.add(key)
            return
        if PyDict_Size(self) >= self.capacity:
            PyDict_Clear(self)
        if self.capacity > 0:
            PyDict_SetItem(self, key, value)

    def clear(self) -> None:
        """Forget every entry and every key computed once."""
        PyDict_Clear(self)
        self.computed_once.clear()
