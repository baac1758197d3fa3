# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of BPE's merge table (`MergeTable` and `merge_columns` in `bpe.py`, the
reference, with the same methods).

`MergeTable` holds a BPE model's merges, its single-char tokens and (when first asked) the char
pairs its tokens hold, in C hash tables, and runs `MergeTable.merge_with_heap` without dropout,
trace, BPE-dropout or unused pieces over C arrays: a binary heap of `key << 32 | position` entries
over a linked list of symbols, with the same stale-entry rules, in HF's order (key = rank) or
sentencepiece's (key = the rank's level). `BPE` runs every other case with the reference.

The loop over a word longer than `NOGIL_MIN_SYMBOLS` symbols runs without the GIL.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int16_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memcmp, memset

from ._hash_table cimport EMPTY, HashTable

from codecs import charmap_decode as _BYTE_LEVEL  # bytes -> their chars in a byte-level alphabet

# Byte-level alphabets use chars below this (GPT-2's goes up to U+0143).
cdef enum:
    BYTE_CHAR_LIMIT = 0x400

# Below this many symbols, releasing and taking back the GIL costs more than the loop.
NOGIL_MIN_SYMBOLS = 64
cdef Py_ssize_t _NOGIL_MIN = NOGIL_MIN_SYMBOLS
cdef uint64_t POSITION_MASK = 0xFFFFFFFFULL
cdef int64_t MAX_ID = 0x7FFFFFFF
# Merges of two ids below this (a byte-level vocabulary's bytes, most often) are ranked from a
# dense array that stays in the CPU's cache; the others from the hash table.
cdef enum:
    SMALL_IDS = 256



__all__ = ["MergeTable", "merge_columns", "merge_pairs", "ranked_splits"]  # the entry points with a twin


cdef inline Py_ssize_t _utf8_length(Py_UCS4 char) noexcept nogil:
    """The UTF-8 byte length of one code point (a lone surrogate counts 3, as its WTF-8 form)."""
    if char < 0x80:
        return 1
    if char < 0x800:
        return 2
    if char < 0x10000:
        return 3
    return 4


cdef inline void _push(uint64_t* heap, Py_ssize_t* size, uint64_t entry) noexcept nogil:
    """Add `entry` to the binary min-heap `heap` of `size[0]` entries."""
    cdef Py_ssize_t child = size[0]
    cdef Py_ssize_t parent
    size[0] += 1
    while child > 0:
        parent = (child - 1) >> 1
        if heap[parent] <= entry:
            break
        heap[child] = heap[parent]
        child = parent
    heap[child] = entry


cdef inline uint64_t _pop(uint64_t* heap, Py_ssize_t* size) noexcept nogil:
    """Remove and return the smallest entry of a non-empty heap."""
    cdef uint64_t top = heap[0]
    cdef Py_ssize_t count = size[0] - 1
    cdef uint64_t last = heap[count]
    cdef Py_ssize_t parent = 0
    cdef Py_ssize_t child
    size[0] = count
    while True:
        child = 2 * parent + 1
        if child >= count:
            break
        if child + 1 < count and heap[child + 1] < heap[child]:
            child += 1
        if last <= heap[child]:
            break
        heap[parent] = heap[child]
        parent = child
    if count > 0:
        heap[parent] = last
    return top


cdef enum:
    FNV_OFFSET_BASIS = 0xCBF29CE484222325ULL


cdef inline uint64_t _bytes_hash(const unsigned char* data, Py_ssize_t size) noexcept nogil:
    """FNV-1a over bytes, never the hash table's empty key."""
    cdef uint64_t hashed = FNV_OFFSET_BASIS
    cdef Py_ssize_t i
    for i in range(size):
        hashed = (hashed ^ data[i]) * 0x100000001B3ULL
    return hashed if hashed != EMPTY else 0


cdef list _per_text(const int32_t* out, const Py_ssize_t* marks, const Py_ssize_t* counts, Py_ssize_t texts):
    """The ids of `out` cut into one list per text (`counts` pieces each; `marks[p]`: the ids
    produced up to piece p)."""
    cdef list lists = []
    cdef Py_ssize_t text, i, piece = 0, start = 0, end
    for text in range(texts):
        piece += counts[text]
        end = marks[piece - 1] if piece else 0
        lists.append([out[i] for i in range(start, end)])
        start = end
    return lists


cdef struct Word:
    int32_t* ids
    int64_t* lengths
    Py_ssize_t* next_of
    Py_ssize_t* prev_of
    uint64_t* heap
    Py_ssize_t count


cdef int _allocate(Word* word, Py_ssize_t count) except -1:
    """Room for a word of `count` symbols: its arrays and a heap of 3 * count entries (the
    seeds plus at most two entries per merge)."""
    cdef Py_ssize_t room = count if count > 0 else 1
    word.count = count
    word.ids = <int32_t*>PyMem_Malloc(room * sizeof(int32_t))
    word.lengths = <int64_t*>PyMem_Malloc(room * sizeof(int64_t))
    word.next_of = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
    word.prev_of = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
    word.heap = <uint64_t*>PyMem_Malloc(3 * room * sizeof(uint64_t))
    if not (word.ids and word.lengths and word.next_of and word.prev_of and word.heap):
        _release(word)
        raise MemoryError()
    return 0


cdef void _release(Word* word) noexcept:
    """Free the arrays of a word."""
    PyMem_Free(word.ids)
    PyMem_Free(word.lengths)
    PyMem_Free(word.next_of)
    PyMem_Free(word.prev_of)
    PyMem_Free(word.heap)


cdef tuple _kept(Word* word):
    """The ids and byte lengths of the symbols left after merging (a merged-away one has length 0)."""
    cdef list ids = []
    cdef list lengths = []
    cdef Py_ssize_t i
    for i in range(word.count):
        if word.lengths[i]:
            ids.append(word.ids[i])
            lengths.append(word.lengths[i])
    return ids, lengths


def merge_columns(dict vocab, list merges) -> object:
    """The ids of each merge's (left, right) tokens and of their join, in one C loop; None when a
    merge is not two strings or one of the three is not in the vocab."""
    cdef Py_ssize_t rank, count = len(merges)
    cdef list left_ids = [None] * count, right_ids = [None] * count, new_ids = [None] * count
    cdef object merge, left, right, found
    for rank in range(count):
        merge = merges[rank]
        if type(merge) is not tuple and type(merge) is not list or len(merge) != 2:
            return None
        left, right = merge
        if type(left) is not str or type(right) is not str:
            return None
        found = vocab.get(left)
        if found is None:
            return None
        left_ids[rank] = found
        found = vocab.get(right)
        if found is None:
            return None
        right_ids[rank] = found
        found = vocab.get(<str>left + <str>right)
        if found is None:
            return None
        new_ids[rank] = found
    return left_ids, right_ids, new_ids


def merge_pairs(list lines) -> object:
    """`bpe.merge_pairs`: the (left, right) of each legacy merge line (strings all; those starting
    with `#version` skipped), or the index of the first line without exactly one space."""
    cdef list pairs = []
    cdef Py_ssize_t index, at, space, length
    cdef str line
    for index in range(len(lines)):
        line = <str>lines[index]
        if line.startswith("#version"):
            continue
        length = len(line)
        space = -1
        for at in range(length):
            if line[at] == u" ":
                if space >= 0:
                    return index
                space = at
        if space < 0:
            return index
        pairs.append((line[:space], line[space + 1:]))
    return pairs


cdef inline uint64_t _fnv_step(uint64_t key, Py_UCS4 code_point) noexcept nogil:
    """The FNV-1a key (over code points; see `_bytes_hash`) of a string one char longer: a
    piece's key in `ranked_splits`, grown one char at a time over its prefixes."""
    return (key ^ <uint64_t>code_point) * 0x100000001B3ULL


cdef inline uint64_t _slot_key(uint64_t key) noexcept nogil:
    """A key the hash table can hold (EMPTY marks a free slot)."""
    return key if key != EMPTY else 0


cdef inline uint64_t _next_key(uint64_t key) noexcept nogil:
    """Where a piece whose key is taken by another goes next (and where a lookup goes on)."""
    return _slot_key(key * 0x9E3779B97F4A7C15ULL + 1)


cdef uint64_t _chars_key(str text, Py_ssize_t start, Py_ssize_t end) noexcept:
    """The FNV-1a key of text[start:end]."""
    cdef uint64_t key = FNV_OFFSET_BASIS
    cdef Py_ssize_t at
    for at in range(start, end):
        key = _fnv_step(key, text[at])
    return _slot_key(key)


cdef bint _spells(str text, Py_ssize_t start, Py_ssize_t end, str piece) noexcept:
    """Whether text[start:end] is `piece`."""
    cdef Py_ssize_t at
    if len(piece) != end - start:
        return False
    for at in range(end - start):
        if <Py_UCS4>text[start + at] != <Py_UCS4>piece[at]:
            return False
    return True


cdef int32_t _piece_at(HashTable table, list pieces, uint64_t key, str text, Py_ssize_t start, Py_ssize_t end):
    """The index of the piece text[start:end] (key: its `_chars_key`), or -1: a key's piece is
    checked, and one whose key was taken is found further along its keys."""
    cdef int32_t found = table.get(key)
    while found >= 0 and not _spells(text, start, end, <str>pieces[found]):
        key = _next_key(key)
        found = table.get(key)
    return found


cdef struct _Split:
    double score  # the piece's
    Py_ssize_t length  # the piece's, in chars
    Py_ssize_t found  # how many splits were found before this one (pieces in order, cuts in order)


cdef int _split_order(const void* first, const void* second) noexcept nogil:
    """`ranked_splits`' order: the best-scored piece first, then the longer, then as found."""
    cdef const _Split* a = <const _Split*>first
    cdef const _Split* b = <const _Split*>second
    if a.score != b.score:
        return -1 if a.score > b.score else 1
    if a.length != b.length:
        return -1 if a.length > b.length else 1
    return -1 if a.found < b.found else (1 if a.found > b.found else 0)


def ranked_splits(dict scores) -> list:
    """`bpe.ranked_splits`: every (left, right) cut of a piece whose parts are pieces, sorted. The
    parts are looked up by their FNV-1a keys in a C table, no substring made, and the splits
    sorted in a C array; the merges hold the pieces' own strings."""
    cdef list pieces = list(scores)
    cdef list values = list(scores.values())
    cdef Py_ssize_t count = len(pieces), index, cut, length, cuts = 0
    cdef int32_t left, right
    cdef uint64_t key
    cdef str piece
    cdef HashTable table = HashTable(count)
    for index in range(count):
        piece = <str>pieces[index]
        cuts += max(len(piece) - 1, 0)
        key = _chars_key(piece, 0, len(piece))
        while table.get(key) != -1:
            key = _next_key(key)
        table.put(key, <int32_t>index)
    cdef list found = []  # (score, left, right), pieces in order, cuts in order
    cdef _Split* splits = <_Split*>PyMem_Malloc(max(cuts, 1) * sizeof(_Split))
    if splits == NULL:
        raise MemoryError()
    try:
        for index in range(count):
            piece = <str>pieces[index]
            length = len(piece)
            key = FNV_OFFSET_BASIS
            for cut in range(1, length):
                key = _fnv_step(key, piece[cut - 1])
                left = _piece_at(table, pieces, _slot_key(key), piece, 0, cut)
                if left >= 0:
                    right = _piece_at(table, pieces, _chars_key(piece, cut, length), piece, cut, length)
                    if right >= 0:
                        splits[len(found)] = _Split(<double>values[index], length, len(found))
                        found.append((values[index], pieces[left], pieces[right]))
        qsort(splits, len(found), sizeof(_Split), _split_order)
        return [found[splits[index].found] for index in range(len(found))]
    finally:
        PyMem_Free(splits)


@cython.final
cdef class MergeTable:
    """A BPE model's merges and single-char tokens in C, and its merge loop over C arrays."""

    cdef HashTable ranks  # left id << 32 | right id -> rank (the last rank of a repeated pair)
    cdef int32_t* small_ranks  # the same for two ids below SMALL_IDS, in a dense array (-1: none)
    cdef HashTable chars  # code point -> id of the single-char token
    cdef HashTable joinable  # char << 32 | next char, for every two adjacent chars of a token (lazy)
    cdef int32_t* new_ids  # rank -> id of the merged token
    cdef int32_t* keys  # rank -> the key that orders it: the rank, or its sentencepiece level
    cdef bint by_level
    cdef Py_ssize_t count
    cdef object vocab
    cdef int32_t byte_ids[256]  # byte -> id of its byte-level char's token, or -1 (set_byte_alphabet)
    cdef bint has_bytes
    cdef str alphabet  # the chars of bytes 0..255 (set_byte_alphabet)
    cdef int32_t fallback_ids[256]  # byte -> id of its <0xHH> token, or -1 (set_byte_fallback)
    cdef bint has_fallback
    cdef HashTable whole  # FNV-1a hash of a token's bytes -> its id (built when first needed)
    cdef bytes whole_bytes  # the bytes of every token whose chars are all byte chars, end to end
    cdef const unsigned char* whole_data  # their buffer
    cdef int64_t* whole_starts  # entry (the whole table's value) -> where its bytes start in whole_bytes
    cdef int64_t* whole_ends  # entry -> where they end
    cdef int32_t* whole_ids  # entry -> the token's id
    cdef object token_strings  # id -> token string, for `piece_tokens` (set_token_strings)

    def __cinit__(self, list left_ids, list right_ids, list new_ids, object levels, dict vocab) -> None:
        """Tables from the merge columns of a `BPE` (rank -> left id, right id, new id), its
        `_levels` (None: HF's order) and the vocab; a repeated pair keeps its last rank.

        Raises OverflowError when an id or a rank does not fit 31 bits: the model stays in Python.
        """
        cdef Py_ssize_t rank
        cdef int64_t left, right
        self.count = len(new_ids)
        self.by_level = levels is not None
        if self.count > MAX_ID or max(vocab.values(), default=0) > MAX_ID or min(vocab.values(), default=0) < 0:
            raise OverflowError("ids or ranks beyond 31 bits")
        self.new_ids = <int32_t*>PyMem_Malloc((self.count + 1) * sizeof(int32_t))
        self.keys = <int32_t*>PyMem_Malloc((self.count + 1) * sizeof(int32_t))
        if self.new_ids == NULL or self.keys == NULL:
            raise MemoryError()
        for rank in range(self.count):
            self.new_ids[rank] = new_ids[rank]
            self.keys[rank] = levels[rank] if self.by_level else rank
        self.ranks = HashTable(self.count)
        self.small_ranks = <int32_t*>PyMem_Malloc(SMALL_IDS * SMALL_IDS * sizeof(int32_t))
        if self.small_ranks == NULL:
            raise MemoryError()
        memset(self.small_ranks, 0xFF, SMALL_IDS * SMALL_IDS * sizeof(int32_t))
        for rank in range(self.count):
            left, right = left_ids[rank], right_ids[rank]
            if left < SMALL_IDS and right < SMALL_IDS:
                self.small_ranks[left * SMALL_IDS + right] = <int32_t>rank
            else:
                self.ranks.put(<uint64_t>left << 32 | <uint64_t>right, <int32_t>rank)
        self.chars = HashTable(len(vocab))
        for token, token_id in vocab.items():
            if len(token) == 1:
                self.chars.put(<uint64_t>ord(token), <int32_t>token_id)
        self.vocab = vocab
        self.joinable = None
        self.has_bytes = False
        self.has_fallback = False
        self.whole = None

    def __dealloc__(self) -> None:
        """Free the per-rank arrays."""
        PyMem_Free(self.new_ids)
        PyMem_Free(self.keys)
        PyMem_Free(self.whole_starts)
        PyMem_Free(self.whole_ids)
        PyMem_Free(self.small_ranks)

    cdef inline int32_t _rank(self, int32_t left, int32_t right) noexcept nogil:
        """The rank of the merge of (left, right), or -1."""
        if left < SMALL_IDS and right < SMALL_IDS:
            return self.small_ranks[left * SMALL_IDS + right]
        return self.ranks.get(<uint64_t>left << 32 | <uint64_t>right)

    cdef inline void _enqueue(self, Word* word, Py_ssize_t* size, Py_ssize_t left, Py_ssize_t right) noexcept nogil:
        """Queue the pair of symbols `left` and `right` if it has a merge."""
        cdef int32_t rank = self._rank(word.ids[left], word.ids[right])
        if rank >= 0:
            _push(word.heap, size, <uint64_t>self.keys[rank] << 32 | <uint64_t>left)

    cdef void _merge(self, Word* word) noexcept nogil:
        """`MergeTable.merge_with_heap` on a word whose ids and lengths are set: merges in place,
        leaving merged-away symbols with length 0."""
        cdef Py_ssize_t count = word.count
        cdef Py_ssize_t size = 0
        cdef Py_ssize_t pos, right, after, before
        cdef uint64_t entry
        cdef int32_t current, new_id
        for pos in range(count):
            word.next_of[pos] = pos + 1 if pos + 1 < count else -1
            word.prev_of[pos] = pos - 1
        for pos in range(count - 1):
            self._enqueue(word, &size, pos, pos + 1)
        while size:
            entry = _pop(word.heap, &size)
            pos = <Py_ssize_t>(entry & POSITION_MASK)
            right = word.next_of[pos]
            if right == -1 or not word.lengths[pos]:
                continue
            current = self._rank(word.ids[pos], word.ids[right])
            if current < 0:
                continue
            if self.by_level:
                # sentencepiece: the pair now here stands for the entry if it has the entry's level
                if <uint64_t>self.keys[current] != entry >> 32:
                    continue
                new_id = self.new_ids[current]
            else:
                # HF: a stale entry is still applied when the pair now here merges into the same id
                new_id = self.new_ids[entry >> 32]
                if self.new_ids[current] != new_id:
                    continue
            word.ids[pos] = new_id
            word.lengths[pos] += word.lengths[right]
            word.lengths[right] = 0
            after = word.next_of[right]
            word.next_of[pos] = after
            if after != -1:
                word.prev_of[after] = pos
            before = word.prev_of[pos]
            if before != -1:
                self._enqueue(word, &size, before, pos)
            if after != -1:
                self._enqueue(word, &size, pos, after)

    cdef void _run(self, Word* word):
        """Merge a word, without the GIL when it is long."""
        if word.count < _NOGIL_MIN:
            self._merge(word)
        else:
            with nogil:
                self._merge(word)

    def merge(self, list ids, list lengths) -> tuple:
        """The merged symbols (ids, byte lengths) of initial symbols, as `merge_with_heap` gives
        them with no dropout and no unused pieces."""
        cdef Word word
        cdef Py_ssize_t i
        _allocate(&word, len(ids))
        try:
            for i in range(word.count):
                word.ids[i] = ids[i]
                word.lengths[i] = lengths[i]
            self._run(&word)
            return _kept(&word)
        finally:
            _release(&word)

    def tokenize_word(self, str text) -> object:
        """The merged symbols (ids, byte lengths) of an undecorated word, one symbol per char;
        None when a char is not a token (`BPE._symbols_with_unknowns` decides then)."""
        cdef Word word
        cdef Py_ssize_t i = 0
        cdef Py_UCS4 char
        cdef int32_t token_id
        _allocate(&word, len(text))
        try:
            for char in text:
                token_id = self.chars.get(<uint64_t>char)
                if token_id < 0:
                    return None
                word.ids[i] = token_id
                word.lengths[i] = _utf8_length(char)
                i += 1
            self._run(&word)
            return _kept(&word)
        finally:
            _release(&word)

    def set_byte_alphabet(self, str alphabet) -> None:
        """Learn the char that stands for each byte (the 256 chars of the byte-level alphabet, in
        byte order), for `utf8_ids` and `utf8_tokens`."""
        cdef Py_ssize_t byte
        if len(alphabet) != 256:
            raise ValueError("a byte-level alphabet has 256 chars")
        for byte in range(256):
            self.byte_ids[byte] = self.chars.get(<uint64_t>ord(alphabet[byte]))
        self.alphabet = alphabet
        self.has_bytes = True

    def set_byte_fallback(self, list byte_ids) -> None:
        """Learn the id of each byte's <0xHH> token (None: missing), for `columns` of a model
        with byte fallback: an unknown char then becomes its bytes' tokens."""
        cdef Py_ssize_t byte
        for byte in range(256):
            self.fallback_ids[byte] = -1 if byte_ids[byte] is None else byte_ids[byte]
        self.has_fallback = True

    cdef bint _fallback_symbols(self, Py_UCS4 char, int32_t* ids) noexcept:
        """The <0xHH> ids of the UTF-8 bytes of `char` (a lone surrogate as its WTF-8 form) in
        `ids`; False when byte fallback is off or a byte has no token."""
        cdef unsigned char data[4]
        cdef Py_ssize_t count = _utf8_length(char), i
        cdef uint32_t code = <uint32_t>char
        if not self.has_fallback:
            return False
        if count == 1:
            data[0] = <unsigned char>code
        elif count == 2:
            data[0] = <unsigned char>(0xC0 | (code >> 6))
            data[1] = <unsigned char>(0x80 | (code & 0x3F))
        elif count == 3:
            data[0] = <unsigned char>(0xE0 | (code >> 12))
            data[1] = <unsigned char>(0x80 | ((code >> 6) & 0x3F))
            data[2] = <unsigned char>(0x80 | (code & 0x3F))
        else:
            data[0] = <unsigned char>(0xF0 | (code >> 18))
            data[1] = <unsigned char>(0x80 | ((code >> 12) & 0x3F))
            data[2] = <unsigned char>(0x80 | ((code >> 6) & 0x3F))
            data[3] = <unsigned char>(0x80 | (code & 0x3F))
        for i in range(count):
            ids[i] = self.fallback_ids[data[i]]
            if ids[i] < 0:
                return False
        return True

    def columns(self, str text, object vocab_r) -> object:
        """An undecorated word's tokens as a tokenizer's columns: ids, strings (from `vocab_r`)
        and char spans (a token that cuts a char covers all of it). A char that is not a token
        becomes its bytes' <0xHH> tokens (each 1 byte long, as HF counts them) with byte
        fallback; None when a char has neither (the Python path decides: unk, fused or not)."""
        cdef Word word
        cdef Py_ssize_t i, j, count = self._symbol_count(text)
        cdef int64_t* char_of = NULL  # the char each symbol's first byte belongs to
        cdef list ids = [], tokens = [], spans = []
        if count < 0:
            return None
        _allocate(&word, count)
        try:
            char_of = <int64_t*>PyMem_Malloc((count + 1) * sizeof(int64_t))
            if char_of == NULL:
                raise MemoryError()
            self._fill_symbols(text, &word, char_of)
            self._run(&word)
            for i in range(count):
                if word.lengths[i]:
                    ids.append(word.ids[i])
                    tokens.append(vocab_r[word.ids[i]])
                    j = i + 1  # the next live symbol, or the end
                    while j < count and not word.lengths[j]:
                        j += 1
                    spans.append((char_of[i], char_of[j - 1] + 1))
            return ids, tokens, spans
        finally:
            PyMem_Free(char_of)
            _release(&word)

    def ids(self, str text) -> object:
        """The ids of `columns` alone (for a caller that needs no strings or spans); None where
        `columns` is None."""
        cdef Word word
        cdef Py_ssize_t i, count = self._symbol_count(text)
        cdef list ids = []
        if count < 0:
            return None
        _allocate(&word, count)
        try:
            self._fill_symbols(text, &word, NULL)
            self._run(&word)
            for i in range(count):
                if word.lengths[i]:
                    ids.append(word.ids[i])
            return ids
        finally:
            _release(&word)

    cdef Py_ssize_t _symbol_count(self, str text) noexcept:
        """The initial symbols of `text`: one per known char, one per byte of an unknown one
        that byte fallback covers; -1 when a char has neither."""
        cdef Py_ssize_t count = 0
        cdef Py_UCS4 char
        cdef int32_t fallback[4]
        for char in text:
            if self.chars.get(<uint64_t>char) >= 0:
                count += 1
            elif self._fallback_symbols(char, fallback):
                count += _utf8_length(char)
            else:
                return -1
        return count

    cdef void _fill_symbols(self, str text, Word* word, int64_t* char_of) noexcept:
        """Put the initial symbols of `text` (as `_symbol_count` counts them) in `word` and,
        unless `char_of` is NULL, the index of the char each one belongs to in `char_of`."""
        cdef Py_ssize_t i = 0, j, width, char_index = 0
        cdef Py_UCS4 char
        cdef int32_t token_id
        cdef int32_t fallback[4]
        for char in text:
            token_id = self.chars.get(<uint64_t>char)
            if token_id >= 0:
                fallback[0] = token_id
                width = 1
            else:
                width = _utf8_length(char)
                self._fallback_symbols(char, fallback)
            for j in range(width):
                word.ids[i] = fallback[j]
                word.lengths[i] = 1 if token_id < 0 else _utf8_length(char)
                if char_of != NULL:
                    char_of[i] = char_index
                i += 1
            char_index += 1

    cdef bint _utf8_word(self, bytes data, Word* word) except -1:
        """Merge the symbols of `data`, one per byte; False (nothing allocated) when a byte's char
        is not a token."""
        cdef const unsigned char* raw = data
        cdef Py_ssize_t i, count = len(data)
        if not self.has_bytes:
            raise ValueError("set_byte_alphabet first")
        for i in range(count):
            if self.byte_ids[raw[i]] < 0:
                return False
        _allocate(word, count)
        for i in range(count):
            word.ids[i] = self.byte_ids[raw[i]]
            word.lengths[i] = 1
        self._run(word)
        return True

    def utf8_ids(self, str piece) -> object:
        """The ids of `piece` as byte-level BPE gives them (its UTF-8 bytes, one symbol each, merged);
        None when a byte's char is not a token."""
        cdef Word word
        cdef list ids = []
        cdef Py_ssize_t i
        if not self._utf8_word(piece.encode("utf-8"), &word):
            return None
        try:
            for i in range(word.count):
                if word.lengths[i]:
                    ids.append(word.ids[i])
            return ids
        finally:
            _release(&word)

    def encode_utf8_spans(self, bytes data, bytes ends, bint whole, bytes counts=None) -> object:
        """tiktoken's `encode_ordinary` after the split, in C: the ids of each piece of `data`
        (UTF-8 bytes cut at `ends`, packed Py_ssize_t from `Scanner.utf8_ends`), a piece that is a
        whole token given as that token when `whole`, any other one merged. The merges run
        without the GIL, so threads encode texts side by side. With `counts` (pieces per text,
        packed, from `Scanner.utf8_ends_batch`), a list of ids per text. None when a byte's char
        is not a token (the caller then goes the Python way)."""
        cdef const unsigned char* raw = data
        cdef const Py_ssize_t* stops = <const Py_ssize_t*><const char*>ends
        cdef Py_ssize_t size = len(data), count = len(ends) // sizeof(Py_ssize_t)
        cdef Py_ssize_t i, longest = 1, start = 0, produced
        cdef int32_t* out
        cdef Py_ssize_t* marks = NULL  # ids produced after each piece, when counts are given
        cdef Word word
        if not self.has_bytes:
            raise ValueError("set_byte_alphabet first")
        for i in range(size):
            if self.byte_ids[raw[i]] < 0:
                return None
        if whole and self.whole is None:
            self._build_whole()
        for i in range(count):
            longest = max(longest, stops[i] - start)
            start = stops[i]
        out = <int32_t*>PyMem_Malloc((size + 1) * sizeof(int32_t))
        if counts is not None:
            marks = <Py_ssize_t*>PyMem_Malloc((count + 1) * sizeof(Py_ssize_t))
        if out == NULL or (counts is not None and marks == NULL):
            PyMem_Free(out)
            raise MemoryError()
        try:
            _allocate(&word, longest)
            try:
                with nogil:
                    produced = self._encode_spans(raw, stops, count, whole, &word, out, marks)
            finally:
                _release(&word)
            if counts is None:
                return [out[i] for i in range(produced)]
            return _per_text(out, marks, <const Py_ssize_t*><const char*>counts, len(counts) // sizeof(Py_ssize_t))
        finally:
            PyMem_Free(out)
            PyMem_Free(marks)

    cdef Py_ssize_t _encode_spans(self, const unsigned char* raw, const Py_ssize_t* stops, Py_ssize_t count,
                                  bint whole, Word* word, int32_t* out, Py_ssize_t* marks) noexcept nogil:
        """`encode_utf8_spans`' loop: the ids of every piece into `out` (and, when `marks` is
        given, how many there are after each piece); how many in all."""
        cdef Py_ssize_t piece, i, size, start = 0, produced = 0
        cdef int32_t token_id
        for piece in range(count):
            size = stops[piece] - start
            token_id = self._whole_id(raw + start, size) if whole and size > 1 else -1
            if token_id >= 0:
                out[produced] = token_id
                produced += 1
            else:
                word.count = size
                for i in range(size):
                    word.ids[i] = self.byte_ids[raw[start + i]]
                    word.lengths[i] = 1
                if size > 1:
                    self._merge(word)
                for i in range(size):
                    if word.lengths[i]:
                        out[produced] = word.ids[i]
                        produced += 1
            if marks != NULL:
                marks[piece] = produced
            start = stops[piece]
        return produced

    def build_whole(self) -> None:
        """Build the whole-token table of `encode_utf8_spans` now (it is built on first use)."""
        if self.whole is None:
            self._build_whole()

    cdef int32_t _whole_id(self, const unsigned char* data, Py_ssize_t size) noexcept nogil:
        """The id of the token whose bytes are `data`, or -1."""
        cdef int32_t entry = self.whole.get(_bytes_hash(data, size))
        if entry < 0 or self.whole_ends[entry] - self.whole_starts[entry] != size:
            return -1
        if memcmp(self.whole_data + self.whole_starts[entry], data, size) != 0:
            return -1
        return self.whole_ids[entry]

    cdef int _build_whole(self) except -1:
        """The whole-token table: every token whose chars all stand for bytes, by the hash of
        those bytes (the Python path looks the byte-level string up in the vocab instead). Its
        arrays grow with the vocabulary, not with its largest id."""
        cdef int16_t byte_of[BYTE_CHAR_LIMIT]
        cdef Py_ssize_t byte, total = 0, at = 0, start, entries = 0, count = len(self.vocab)
        cdef Py_UCS4 char_
        cdef uint32_t code
        cdef str token
        cdef int32_t token_id
        cdef bytearray buffer
        cdef unsigned char* write
        memset(byte_of, 0xFF, sizeof(byte_of))
        for byte in range(256):
            code = <uint32_t>(<Py_UCS4>self.alphabet[byte])
            if code < BYTE_CHAR_LIMIT:
                byte_of[code] = <int16_t>byte
        for token in self.vocab:
            total += len(token)
        buffer = bytearray(total + 1)
        write = buffer
        self.whole_starts = <int64_t*>PyMem_Malloc(2 * (count + 1) * sizeof(int64_t))
        self.whole_ids = <int32_t*>PyMem_Malloc((count + 1) * sizeof(int32_t))
        if self.whole_starts == NULL or self.whole_ids == NULL:
            raise MemoryError()
        self.whole_ends = self.whole_starts + count + 1
        table = HashTable(count)
        for token, token_id in self.vocab.items():
            start = at
            for char_ in token:
                code = <uint32_t>char_
                if code >= BYTE_CHAR_LIMIT or byte_of[code] < 0:
                    at = -1
                    break
                write[at] = <unsigned char>byte_of[code]
                at += 1
            if at < 0:  # a char that stands for no byte: no byte string is this token
                at = start
                continue
            self.whole_starts[entries] = start
            self.whole_ends[entries] = at
            self.whole_ids[entries] = token_id
            table.put(_bytes_hash(write + start, at - start), <int32_t>entries)
            entries += 1
        self.whole_bytes = bytes(buffer[:at])
        self.whole_data = self.whole_bytes
        self.whole = table
        return 0

    def set_token_strings(self, object vocab_r) -> None:
        """Keep the model's id -> token string map, for `piece_tokens`."""
        self.token_strings = vocab_r

    def piece_tokens(self, str piece) -> object:
        """`BPE.tokenize_utf8` of a model without ignore_merges, without its Python calls: None
        for an empty piece, else `utf8_tokens` with the strings of `set_token_strings`."""
        if not piece or self.token_strings is None:
            return None
        return self.utf8_tokens(piece, self.token_strings)

    def whole_piece_tokens(self, str piece) -> object:
        """`piece_tokens` of a model with HF's ignore_merges: a piece whose byte-level chars are
        a token is that token, spanning the piece; any other one merged."""
        cdef object token_id
        if not piece or self.token_strings is None:
            return None
        if not self.has_bytes:
            piece.encode("utf-8")  # a lone surrogate raises first, as in the twin
            raise ValueError("set_byte_alphabet first")
        # The vocab looked up by the byte-level string, as in the twin: no table to build first
        # (the whole-token table of encode_utf8_spans takes 15 ms for Llama 3's 128k tokens).
        token_id = self.vocab.get(_BYTE_LEVEL(piece.encode("utf-8"), "strict", self.alphabet)[0])
        if token_id is not None:
            return [token_id], [self.token_strings[token_id]], [(0, len(piece))]
        return self.utf8_tokens(piece, self.token_strings)

    cpdef object utf8_tokens(self, str piece, object vocab_r):
        """`utf8_ids` with each token's string (from `vocab_r`) and its char span within `piece`
        (a token that cuts a char covers all of it); None when a byte's char is not a token."""
        cdef bytes data = piece.encode("utf-8")
        cdef const unsigned char* raw = data
        cdef Word word
        cdef list ids = [], tokens = [], spans = []
        cdef Py_ssize_t byte, char_index = -1, start_char = 0
        cdef int32_t token_id
        if not self._utf8_word(data, &word):
            return None
        try:
            for byte in range(word.count):
                if (raw[byte] & 0xC0) != 0x80:
                    char_index += 1
                if word.lengths[byte]:
                    start_char = char_index
                    token_id = word.ids[byte]
                    ids.append(token_id)
                    tokens.append(vocab_r[token_id])
                if byte + 1 == word.count or word.lengths[byte + 1]:  # the token ends at this byte
                    spans.append((start_char, char_index + 1))
            return ids, tokens, spans
        finally:
            _release(&word)

    cdef void _build_joinable(self):
        """Every two adjacent chars inside a token, as char << 32 | next."""
        cdef Py_ssize_t pairs = 0
        cdef str token
        cdef Py_UCS4 previous, char
        cdef bint first
        for token in self.vocab:
            pairs += len(token)
        self.joinable = HashTable(pairs)
        for token in self.vocab:
            first = True
            for char in token:
                if not first:
                    self.joinable.put(<uint64_t>previous << 32 | <uint64_t>char, 1)
                previous = char
                first = False

    def cuts(self, str ends, str starts) -> list:
        """Every i where no token holds ends[i - 1] followed by starts[i] and both are
        single-char tokens."""
        cdef list found = []
        cdef Py_ssize_t i, count
        cdef Py_UCS4 left, right
        if self.joinable is None:
            self._build_joinable()
        count = min(len(ends), len(starts) - 1)
        for i in range(1, count + 1):
            left = ends[i - 1]
            right = starts[i]
            if (self.joinable.get(<uint64_t>left << 32 | <uint64_t>right) < 0
                    and self.chars.get(<uint64_t>left) >= 0 and self.chars.get(<uint64_t>right) >= 0):
                found.append(i)
        return found
