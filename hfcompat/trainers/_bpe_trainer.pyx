# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of the BPE trainer's "hf" merge loop, `load` and `merge_hf` in `bpe.py` (the
reference, with the same names and parameters).

`load` copies the words into C arrays (one array of int32 symbols, and char lengths with a max
token length), so the caller can drop its lists before the loop. `merge_hf` then runs what the
reference's does (`Corpus.count_pairs`, then the queue): every pair's int64 count in a C hash table, and
HF's queue as a binary heap of (count, pair, serial, words) entries with the same order (top
count, then the smallest (left, right), then the oldest entry) and the same semantics: a stale
entry goes back with its current count, and an entry merges only the words it recorded. The
merged tokens' texts and ids stay in Python (`new_token`), so merges and vocabulary are
identical to the reference. `load` returns None when a count or an id does not fit its C types;
`bpe.py` then runs the Python loop.
"""

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport INT64_MAX, int32_t, int64_t, uint64_t

from ..models._hash_table cimport EMPTY, HashTable, Slot

# Counts, their products with word lengths and every sum of them stay below this (int64 with room).
cdef int64_t COUNT_LIMIT = 1LL << 61
cdef int64_t MAX_ID = 0x7FFFFFFF



__all__ = ["load", "merge_hf"]  # the entry points with twins in bpe.py


# A growable list of int32: word indices (each once: words are visited in turn) or pair numbers.
cdef struct Positions:
    int32_t* data
    int32_t size
    int32_t room


# One queue entry: the count it was pushed with, its pair, its serial and its words.
cdef struct Entry:
    int64_t count
    uint64_t pair
    int64_t serial
    Positions words


cdef inline bint _before(Entry* a, Entry* b) noexcept nogil:
    """True when `a` pops before `b`: higher count, then smaller pair, then older."""
    if a.count != b.count:
        return a.count > b.count
    if a.pair != b.pair:
        return a.pair < b.pair
    return a.serial < b.serial


cdef int _resize(void** data, size_t size) except -1:
    """Reallocate `data[0]` to `size` bytes (it is left as it was when memory runs out)."""
    cdef void* resized = PyMem_Realloc(data[0], size)
    if resized == NULL:
        raise MemoryError()
    data[0] = resized
    return 0


cdef int _append(Positions* values, int32_t value) except -1:
    """Add `value` at the end of a growable list."""
    if values.size == values.room:
        _resize(<void**>&values.data, (values.room * 2 if values.room else 2) * sizeof(int32_t))
        values.room = values.room * 2 if values.room else 2
    values.data[values.size] = value
    values.size += 1
    return 0


cdef int _add_position(Positions* words, int32_t index) except -1:
    """Note word `index` unless it is already the last one noted."""
    if words.size and words.data[words.size - 1] == index:
        return 0
    return _append(words, index)


@cython.final
cdef class _Queue:
    """HF's merge queue: a binary heap of entries, each owning its list of words."""

    cdef Entry* heap
    cdef Py_ssize_t size
    cdef Py_ssize_t room
    cdef int64_t serial

    def __dealloc__(self) -> None:
        """Free the entries' word lists and the heap."""
        cdef Py_ssize_t i
        for i in range(self.size):
            PyMem_Free(self.heap[i].words.data)
        PyMem_Free(self.heap)

    cdef int push(self, int64_t count, uint64_t pair, Positions words) except -1:
        """Add an entry with the next serial (it takes over `words`)."""
        cdef Py_ssize_t child, parent
        cdef Entry entry
        if self.size == self.room:
            try:
                _resize(<void**>&self.heap, (self.room * 2 if self.room else 1024) * sizeof(Entry))
            except MemoryError:
                PyMem_Free(words.data)
                raise
            self.room = self.room * 2 if self.room else 1024
        entry.count, entry.pair, entry.serial, entry.words = count, pair, self.serial, words
        self.serial += 1
        child = self.size
        self.size += 1
        while child > 0:
            parent = (child - 1) >> 1
            if not _before(&entry, &self.heap[parent]):
                break
            self.heap[child] = self.heap[parent]
            child = parent
        self.heap[child] = entry
        return 0

    cdef Entry pop(self) noexcept:
        """Remove and return the first entry of a non-empty queue (the caller owns its words)."""
        cdef Entry top = self.heap[0]
        cdef Py_ssize_t count = self.size - 1
        cdef Entry* last = &self.heap[count]
        cdef Py_ssize_t parent = 0
        cdef Py_ssize_t child
        self.size = count
        while True:
            child = 2 * parent + 1
            if child >= count:
                break
            if child + 1 < count and _before(&self.heap[child + 1], &self.heap[child]):
                child += 1
            if not _before(&self.heap[child], last):
                break
            self.heap[parent] = self.heap[child]
            parent = child
        if count > 0:
            self.heap[parent] = last[0]
        return top


@cython.final
cdef class _Pairs:
    """Every pair seen: its count, and where its words are noted during the current merge."""

    cdef HashTable index  # pair -> its number
    cdef Py_ssize_t room  # pairs the index holds before it is rebuilt larger
    cdef uint64_t* keys  # by number: left id << 32 | right id
    cdef int64_t* counts
    cdef int32_t* marks  # the merge in which the pair last appeared (-1: never)
    cdef int32_t* slots  # in that merge, its place in the corpus's touched pairs
    cdef Py_ssize_t size
    cdef Py_ssize_t allocated

    def __cinit__(self) -> None:
        """An empty set of pairs."""
        self.room = 1 << 16
        self.index = HashTable(self.room)

    def __dealloc__(self) -> None:
        """Free the arrays."""
        PyMem_Free(self.keys)
        PyMem_Free(self.counts)
        PyMem_Free(self.marks)
        PyMem_Free(self.slots)

    cdef int _grow(self) except -1:
        """Double the per-pair arrays."""
        cdef Py_ssize_t room = self.allocated * 2 if self.allocated else 1 << 16
        _resize(<void**>&self.keys, room * sizeof(uint64_t))
        _resize(<void**>&self.counts, room * sizeof(int64_t))
        _resize(<void**>&self.marks, room * sizeof(int32_t))
        _resize(<void**>&self.slots, room * sizeof(int32_t))
        self.allocated = room
        return 0

    cdef int _rebuild_index(self) except -1:
        """A twice larger index of the same pairs."""
        cdef Py_ssize_t number
        self.room *= 2
        self.index = HashTable(self.room)
        for number in range(self.size):
            self.index.put(self.keys[number], <int32_t>number)
        return 0

    cdef Py_ssize_t number(self, uint64_t pair) except -1:
        """The number of `pair`, adding it (count 0) when it is new."""
        cdef Slot* slot = self.index.find(pair)
        cdef Py_ssize_t number
        if slot.key == pair:
            return slot.value
        if self.size == self.allocated:
            self._grow()
        number = self.size
        self.size += 1
        self.keys[number] = pair
        self.counts[number] = 0
        self.marks[number] = -1
        if self.size >= self.room:
            self._rebuild_index()
        else:
            slot.key = pair
            slot.value = <int32_t>number
        return number


@cython.final
cdef class _Corpus:
    """The words as symbols in one array (and their char lengths), their counts, and the pairs."""

    cdef int32_t* symbols
    cdef int32_t* lengths  # NULL without a max token length
    cdef Py_ssize_t* starts
    cdef int32_t* sizes
    cdef int64_t* counts
    cdef Py_ssize_t word_count
    cdef int64_t max_length
    cdef _Pairs pairs
    cdef int32_t merge_number  # the merge under way (marks the pairs that appear)
    cdef Positions touched  # numbers of the pairs that appeared in it, in order
    cdef Positions* appeared  # beside each touched pair, the words where it appeared
    cdef Py_ssize_t appeared_room

    def __dealloc__(self) -> None:
        """Free the arrays."""
        cdef Py_ssize_t k
        PyMem_Free(self.symbols)
        PyMem_Free(self.lengths)
        PyMem_Free(self.starts)
        PyMem_Free(self.sizes)
        PyMem_Free(self.counts)
        for k in range(self.touched.size):
            PyMem_Free(self.appeared[k].data)
        PyMem_Free(self.touched.data)
        PyMem_Free(self.appeared)

    cdef int change(self, int32_t left, int32_t right, bint added, int64_t count, int32_t word) except -1:
        """Add (or take away) `count` to a pair's count; an added pair notes `word` where it appeared."""
        cdef Py_ssize_t number = self.pairs.number(<uint64_t>left << 32 | <uint64_t>right)
        cdef Py_ssize_t slot
        if not added:
            self.pairs.counts[number] -= count
            return 0
        self.pairs.counts[number] += count
        if self.pairs.marks[number] != self.merge_number:
            slot = self.touched.size
            if slot == self.appeared_room:
                self.appeared_room = self.appeared_room * 2 if self.appeared_room else 1024
                _resize(<void**>&self.appeared, self.appeared_room * sizeof(Positions))
            _append(&self.touched, <int32_t>number)
            self.appeared[slot].data = NULL
            self.appeared[slot].size = self.appeared[slot].room = 0
            self.pairs.marks[number] = self.merge_number
            self.pairs.slots[number] = <int32_t>slot
        _add_position(&self.appeared[self.pairs.slots[number]], word)
        return 0

    cdef int count_pairs(self, _Queue queue) except -1:
        """`Corpus.count_pairs`, then one queue entry per pair of positive count."""
        cdef Py_ssize_t word, i
        cdef int32_t* symbols
        self.merge_number = 0
        for word in range(self.word_count):
            symbols = self.symbols + self.starts[word]
            for i in range(self.sizes[word] - 1):
                self.change(symbols[i], symbols[i + 1], True, self.counts[word], <int32_t>word)
        self._queue_touched(queue)
        return 0

    cdef int _queue_touched(self, _Queue queue) except -1:
        """Queue every pair that appeared in this merge and has a positive count (`_merge_hf`)."""
        cdef Py_ssize_t k, number
        cdef Positions words
        for k in range(self.touched.size):
            number = self.touched.data[k]
            words = self.appeared[k]
            self.appeared[k].data = NULL
            if self.pairs.counts[number] > 0:
                queue.push(self.pairs.counts[number], self.pairs.keys[number], words)
            else:
                PyMem_Free(words.data)
        self.touched.size = 0
        return 0

    cdef int merge_word(self, int32_t word, int32_t left, int32_t right, int32_t new) except -1:
        """`merge_in_word` on one word, rewriting it in place and updating the pair counts."""
        cdef int32_t* symbols = self.symbols + self.starts[word]
        cdef int32_t* lengths = self.lengths + self.starts[word] if self.lengths != NULL else NULL
        cdef Py_ssize_t size = self.sizes[word]
        cdef int64_t count = self.counts[word]
        cdef Py_ssize_t read = 0
        cdef Py_ssize_t kept
        cdef int64_t new_length = 0
        while read + 1 < size and not (symbols[read] == left and symbols[read + 1] == right):
            read += 1
        if read + 1 >= size:
            return 0
        kept = read
        while read < size:
            if read + 1 < size and symbols[read] == left and symbols[read + 1] == right:
                if lengths != NULL:
                    new_length = <int64_t>lengths[read] + lengths[read + 1]
                if kept > 0:
                    self.change(symbols[kept - 1], left, False, count, word)
                    if lengths == NULL or lengths[kept - 1] + new_length < self.max_length:
                        self.change(symbols[kept - 1], new, True, count, word)
                symbols[kept] = new
                if lengths != NULL:
                    lengths[kept] = <int32_t>min(new_length, MAX_ID)
                if read + 2 < size:
                    self.change(right, symbols[read + 2], False, count, word)
                    if lengths == NULL or lengths[read + 2] + new_length < self.max_length:
                        self.change(new, symbols[read + 2], True, count, word)
                read += 2
            else:
                symbols[kept] = symbols[read]
                if lengths != NULL:
                    lengths[kept] = lengths[read]
                read += 1
            kept += 1
        self.sizes[word] = <int32_t>kept
        return 0

    cdef int merge(self, int32_t left, int32_t right, int32_t new, Positions* words, _Queue queue) except -1:
        """`Corpus.merge` on the words of one queue entry, then queue the pairs that appeared."""
        cdef int32_t k
        self.merge_number += 1
        for k in range(words.size):
            self.merge_word(words.data[k], left, right, new)
        self._queue_touched(queue)
        return 0


def load(list words, list counts, object lengths, object max_length):
    """The words (lists of symbol ids), their counts and char lengths in C arrays, for
    `merge_hf`; None when a count or an id does not fit. The lists can go once it returns."""
    cdef _Corpus corpus = _Corpus()
    cdef Py_ssize_t word_count = len(words)
    cdef Py_ssize_t total = 0
    cdef Py_ssize_t word, i, start
    cdef int64_t count, bound = 0
    cdef list symbols, word_lengths
    for word in range(word_count):
        total += len(<list>words[word])
    corpus.word_count = word_count
    corpus.max_length = min(max(max_length, 0), INT64_MAX)
    corpus.pairs = _Pairs()
    corpus.symbols = <int32_t*>PyMem_Malloc((total or 1) * sizeof(int32_t))
    corpus.starts = <Py_ssize_t*>PyMem_Malloc((word_count or 1) * sizeof(Py_ssize_t))
    corpus.sizes = <int32_t*>PyMem_Malloc((word_count or 1) * sizeof(int32_t))
    corpus.counts = <int64_t*>PyMem_Malloc((word_count or 1) * sizeof(int64_t))
    if lengths is not None:
        corpus.lengths = <int32_t*>PyMem_Malloc((total or 1) * sizeof(int32_t))
        if corpus.lengths == NULL:
            raise MemoryError()
    if not (corpus.symbols and corpus.starts and corpus.sizes and corpus.counts):
        raise MemoryError()
    if word_count >= MAX_ID:
        return None
    start = 0
    for word in range(word_count):
        symbols = <list>words[word]
        if not isinstance(counts[word], int) or not -COUNT_LIMIT < counts[word] < COUNT_LIMIT:
            return None
        count = counts[word]
        if len(symbols) >= MAX_ID or (count if count > 0 else -count) > (COUNT_LIMIT - bound) // (len(symbols) + 1):
            return None
        bound += (count if count > 0 else -count) * (len(symbols) + 1)
        corpus.starts[word] = start
        corpus.sizes[word] = <int32_t>len(symbols)
        corpus.counts[word] = count
        for i in range(len(symbols)):
            if not 0 <= symbols[i] <= MAX_ID:
                return None
            corpus.symbols[start + i] = symbols[i]
        if lengths is not None:
            word_lengths = <list>lengths[word]
            for i in range(len(symbols)):
                corpus.lengths[start + i] = <int32_t>min(max(word_lengths[i], 0), MAX_ID)
        start += len(symbols)
    return corpus


def merge_hf(_Corpus corpus, object min_frequency, object vocab_size, object vocabulary, object new_token,
             object step):
    """HF's loop on a loaded corpus (rewritten as it goes): the merges as (left id, right id).

    `new_token(left, right)` adds a merge's token to `vocabulary` and returns its id; `step()`
    advances the progress bar.
    """
    cdef _Queue queue = _Queue()
    cdef int64_t least = min(max(min_frequency, -INT64_MAX), INT64_MAX)
    cdef list merges = []
    cdef Entry entry
    cdef int64_t count
    corpus.count_pairs(queue)
    while len(vocabulary) < vocab_size and queue.size:
        entry = queue.pop()
        count = corpus.pairs.counts[corpus.pairs.number(entry.pair)]
        if entry.count != count:
            queue.push(count, entry.pair, entry.words)
            continue
        try:
            if count < 1 or least > count:
                break
            merges.append(_merge_entry(corpus, queue, &entry, new_token))
        finally:
            PyMem_Free(entry.words.data)
        step()
        PyErr_CheckSignals()
    return merges


cdef tuple _merge_entry(_Corpus corpus, _Queue queue, Entry* entry, object new_token):
    """Merge the pair of a current queue entry in its words; return the pair as (left, right)."""
    cdef int32_t left = <int32_t>(entry.pair >> 32)
    cdef int32_t right = <int32_t>(entry.pair & 0xFFFFFFFFULL)
    new = new_token(left, right)
    if not 0 <= new <= MAX_ID:
        raise OverflowError(f"token id {new} does not fit the compiled trainer")
    corpus.merge(left, right, <int32_t>new, &entry.words, queue)
    return left, right
