# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C hash table the compiled twins share (`HashTable` in _hash_table.pxd, which they
cimport): its allocation here, its inline lookups in the .pxd. No Python entry points: the
reference modules use dicts."""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.string cimport memset

__all__ = []  # C-level only


cdef class HashTable:
    def __cinit__(self, Py_ssize_t count) -> None:
        """Room for `count` keys at a load factor of at most one half."""
        cdef uint64_t size = 16
        cdef int bits = 4
        while size < <uint64_t>count * 2:
            size <<= 1
            bits += 1
        self.slots = <Slot*>PyMem_Malloc(size * sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError()
        memset(self.slots, 0xFF, size * sizeof(Slot))
        self.mask = size - 1
        self.shift = 64 - bits

    def __dealloc__(self) -> None:
        """Free the slots."""
        PyMem_Free(self.slots)
