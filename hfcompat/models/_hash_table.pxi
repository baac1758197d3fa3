# An open-addressing hash table uint64 -> int32 in C, shared by the compiled twins: each one
# includes this file (`include "_hash_table.pxi"`).

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset

cdef uint64_t EMPTY = 0xFFFFFFFFFFFFFFFFULL


cdef struct Slot:
    uint64_t key
    int32_t value


cdef inline uint64_t _hash(uint64_t key) nogil:
    """Fibonacci hashing of a 64-bit key (the table takes the high bits)."""
    return key * 0x9E3779B97F4A7C15ULL


@cython.final
cdef class _Table:
    """An open-addressing hash table uint64 -> int32 (linear probing), sized once."""

    cdef Slot* slots
    cdef uint64_t mask
    cdef int shift

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

    cdef inline Slot* _find(self, uint64_t key) noexcept nogil:
        """The slot holding `key`, or the empty slot where it would go."""
        cdef uint64_t index = _hash(key) >> self.shift
        while self.slots[index].key != key and self.slots[index].key != EMPTY:
            index = (index + 1) & self.mask
        return &self.slots[index]

    cdef inline void put(self, uint64_t key, int32_t value) noexcept nogil:
        """Set `key` to `value` (a key given twice keeps its last value, as dict.update does)."""
        cdef Slot* slot = self._find(key)
        slot.key = key
        slot.value = value

    cdef inline int32_t get(self, uint64_t key) noexcept nogil:
        """The value of `key`, or -1 when absent."""
        cdef Slot* slot = self._find(key)
        return slot.value if slot.key == key else -1
