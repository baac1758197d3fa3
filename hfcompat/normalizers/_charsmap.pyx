# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `_key_chars` in `charsmap.py` (the reference): the walk of every key of a
charsmap's trie that SentencePiece's normalizer does once per charsmap before its first text
(0.2 s in Python for nmt_nfkc, the most of a fresh .model tokenizer's first encode).

`key_chars` walks the trie depth-first over C arrays (the edges grouped by parent base, as
`CharsMap._edges` groups them); it returns None for a trie deeper than `MAX_DEPTH` bytes or with
more paths than edges (a malformed blob), and the reference then walks it.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint32_t

MAX_DEPTH = 1024
cdef Py_ssize_t _MAX_DEPTH = MAX_DEPTH
cdef uint32_t LEAF_BIT = 1 << 8
cdef uint32_t LABEL_MASK = 0x800000FF


cdef inline Py_ssize_t _offset(uint32_t unit) noexcept nogil:
    """The XOR offset a unit leads to (`charsmap._offset`)."""
    return (unit >> 10) << ((unit & 0x200) >> 6)


@cython.final
cdef class _Edges:
    """The trie's edges grouped by parent base in C (compressed rows): the children of base b
    are child[first[b]:first[b + 1]] (`CharsMap._edges` in C)."""

    cdef uint32_t* units
    cdef Py_ssize_t* first
    cdef Py_ssize_t* child
    cdef Py_ssize_t count  # units
    cdef Py_ssize_t bases  # room in `first` (every base an edge can name, plus one)
    cdef Py_ssize_t edges

    def __cinit__(self, list units) -> None:
        """Group the edges of `units` by the base they hang from."""
        cdef Py_ssize_t index, base
        cdef uint32_t label
        self.count = len(units)
        self.bases = (self.count | 0xFF) + 2
        self.units = <uint32_t*>PyMem_Malloc((self.count + 1) * sizeof(uint32_t))
        self.first = <Py_ssize_t*>PyMem_Malloc((self.bases + 1) * sizeof(Py_ssize_t))
        self.child = <Py_ssize_t*>PyMem_Malloc((self.count + 1) * sizeof(Py_ssize_t))
        if self.units == NULL or self.first == NULL or self.child == NULL:
            raise MemoryError()
        for base in range(self.bases + 1):
            self.first[base] = 0
        self.edges = 0
        for index in range(self.count):
            self.units[index] = units[index]
            label = self.units[index] & LABEL_MASK
            if 0 < label < 256:
                self.first[(index ^ label) + 1] += 1
                self.edges += 1
        for base in range(self.bases):
            self.first[base + 1] += self.first[base]
        for index in range(self.count):  # fill each row in index order, as `CharsMap._edges` does
            label = self.units[index] & LABEL_MASK
            if 0 < label < 256:
                base = index ^ label
                self.child[self.first[base]] = index
                self.first[base] += 1
        for base in range(self.bases, 0, -1):  # the fill moved every row start to the next one's
            self.first[base] = self.first[base - 1]
        self.first[0] = 0

    def __dealloc__(self) -> None:
        """Free the arrays."""
        PyMem_Free(self.units)
        PyMem_Free(self.first)
        PyMem_Free(self.child)


cdef void _add_char(set chars, char* key, Py_ssize_t length):
    """Add the char the `length` bytes at `key` spell (nothing if they are not one valid char)."""
    try:
        text = key[:length].decode("utf-8")
    except UnicodeDecodeError:
        return
    if len(text) == 1:
        chars.add(ord(text))


def key_chars(list units, Py_ssize_t root, bytes widths) -> object:
    """(alone, leading, second, longest) as `_key_chars` finds them: the chars that are a whole
    key, the first and second chars of longer keys, the bytes of the longest key; None when the
    trie is too deep or not a tree (the reference then walks it). `widths` holds the UTF-8 length
    each byte starts (0: none), as `charsmap._utf8_width` gives it."""
    cdef _Edges trie = _Edges(units)
    cdef set alone = set(), leading = set(), second = set()
    cdef Py_ssize_t longest = 0
    cdef Py_ssize_t* stack_index
    cdef Py_ssize_t* stack_depth
    cdef Py_ssize_t size = 0
    cdef Py_ssize_t room = trie.edges + 1
    cdef Py_ssize_t index, depth, length, base, edge
    cdef int width
    cdef uint32_t unit
    cdef char key[1025]
    cdef const unsigned char* width_of = widths
    if len(widths) != 256:
        raise ValueError("expected the widths of 256 bytes")
    if root < 0 or root >= trie.bases:
        return None
    stack_index = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
    stack_depth = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
    try:
        if stack_index == NULL or stack_depth == NULL:
            raise MemoryError()
        base, depth = root, 0
        while True:
            # push the children of `base`, whose keys are `depth` + 1 bytes long
            for edge in range(trie.first[base], trie.first[base + 1]):
                if size == room:
                    return None
                stack_index[size] = trie.child[edge]
                stack_depth[size] = depth
                size += 1
            if size == 0:
                break
            size -= 1
            index = stack_index[size]
            depth = stack_depth[size]
            if depth >= _MAX_DEPTH:
                return None
            unit = trie.units[index]
            # every position before `depth` still holds this node's ancestors (depth-first)
            key[depth] = <char>(unit & 0xFF)
            length = depth + 1
            if length > longest:
                longest = length
            width = width_of[<unsigned char>key[0]]
            if width and length == width and unit & LEAF_BIT:
                _add_char(alone, key, length)
            if width and length > width and length == width + width_of[<unsigned char>key[width]]:
                _add_char(leading, key, width)
                _add_char(second, key + width, length - width)
            base = index ^ _offset(unit)
            depth = length
            if base >= trie.bases:
                base, depth = trie.bases - 1, length  # no edge hangs there (an empty row)
        return alone, leading, second, longest
    finally:
        PyMem_Free(stack_index)
        PyMem_Free(stack_depth)
