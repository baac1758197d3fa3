# An open-addressing hash table uint64 -> int32 in C, shared by the compiled twins: they
# `cimport` it from here (its constructor and destructor are in _hash_table.pyx; the lookups are
# inline, so each twin compiles them into its own loops).

cimport cython
from libc.stdint cimport int32_t, uint64_t

cdef extern from *:
    """
    #define HFCOMPAT_EMPTY_KEY 0xFFFFFFFFFFFFFFFFULL
    """
    const uint64_t EMPTY "HFCOMPAT_EMPTY_KEY"  # the key of a free slot


cdef struct Slot:
    uint64_t key
    int32_t value


cdef inline uint64_t fibonacci_hash(uint64_t key) noexcept nogil:
    """Fibonacci hashing of a 64-bit key (the table takes the high bits)."""
    return key * 0x9E3779B97F4A7C15ULL


@cython.final
cdef class HashTable:
    """An open-addressing hash table uint64 -> int32 (linear probing), sized once."""

    cdef Slot* slots
    cdef uint64_t mask
    cdef int shift

    cdef inline Slot* find(self, uint64_t key) noexcept nogil:
        """The slot holding `key`, or the empty slot where it would go."""
        cdef uint64_t index = fibonacci_hash(key) >> self.shift
        while self.slots[index].key != key and self.slots[index].key != EMPTY:
            index = (index + 1) & self.mask
        return &self.slots[index]

    cdef inline void put(self, uint64_t key, int32_t value) noexcept nogil:
        """Set `key` to `value` (a key given twice keeps its last value, as dict.update does)."""
        cdef Slot* slot = self.find(key)
        slot.key = key
        slot.value = value

    cdef inline int32_t get(self, uint64_t key) noexcept nogil:
        """The value of `key`, or -1 when absent."""
        cdef Slot* slot = self.find(key)
        return slot.value if slot.key == key else -1
