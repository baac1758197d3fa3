# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of `key_chars`, `char_keys` and `Rewriter` in `charsmap.py` (the reference,
with the same names and methods): the walk of every key of a charsmap's trie that SentencePiece's normalizer does once per charsmap
before its first text (0.2 s in Python for nmt_nfkc, the most of a fresh .model tokenizer's first
encode), and `Rewriter`, SentencePiece's longest-key walk over each text.

`key_chars` walks the trie depth-first over C arrays (the edges grouped by parent base, as
`charsmap._edges` groups them); it returns None for a trie deeper than `MAX_DEPTH` bytes or with
more paths than edges (a malformed blob), and the reference then walks it.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint32_t

__all__ = ["key_chars", "char_keys", "Rewriter"]  # the entry points with a twin

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
    are child[first[b]:first[b + 1]] (`charsmap._edges` in C)."""

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
        for index in range(self.count):  # fill each row in index order, as `charsmap._edges` does
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


@cython.final
cdef class _Walk:
    """A depth-first walk of a trie's keys: its edges, and a stack of (unit index, key depth)."""

    cdef _Edges trie
    cdef Py_ssize_t* index
    cdef Py_ssize_t* depth
    cdef Py_ssize_t size
    cdef Py_ssize_t room

    def __cinit__(self, list units, bytes widths) -> None:
        """The edges of `units`, and room for one stack entry per edge (a tree needs no more)."""
        if len(widths) != 256:
            raise ValueError("expected the widths of 256 bytes")
        self.trie = _Edges(units)
        self.room = self.trie.edges + 1
        self.size = 0
        self.index = <Py_ssize_t*>PyMem_Malloc(self.room * sizeof(Py_ssize_t))
        self.depth = <Py_ssize_t*>PyMem_Malloc(self.room * sizeof(Py_ssize_t))
        if self.index == NULL or self.depth == NULL:
            raise MemoryError()

    def __dealloc__(self) -> None:
        """Free the stack."""
        PyMem_Free(self.index)
        PyMem_Free(self.depth)

    cdef bint push_children(self, Py_ssize_t base, Py_ssize_t depth) noexcept:
        """Push the children of node `base` (keys of `depth` + 1 bytes); False when the stack is
        full, which only a trie that is not a tree makes happen."""
        cdef Py_ssize_t edge
        for edge in range(self.trie.first[base], self.trie.first[base + 1]):
            if self.size == self.room:
                return False
            self.index[self.size] = self.trie.child[edge]
            self.depth[self.size] = depth
            self.size += 1
        return True


def key_chars(list units, Py_ssize_t root, bytes widths) -> object:
    """(alone, leading, second, longest) as the reference `key_chars` finds them: the chars that are a whole
    key, the first and second chars of longer keys, the bytes of the longest key; None when the
    trie is too deep or not a tree (the reference then walks it). `widths` holds the UTF-8 length
    each byte starts (0: none), as `charsmap._utf8_width` gives it."""
    cdef _Walk walk = _Walk(units, widths)
    cdef _Edges trie = walk.trie
    cdef set alone = set(), leading = set(), second = set()
    cdef Py_ssize_t longest = 0
    cdef Py_ssize_t index, depth, length, base
    cdef int width
    cdef uint32_t unit
    cdef char key[1025]
    cdef const unsigned char* width_of = widths
    if root < 0 or root >= trie.bases:
        return None
    base, depth = root, 0
    while True:
        if not walk.push_children(base, depth):
            return None
        if walk.size == 0:
            break
        walk.size -= 1
        index = walk.index[walk.size]
        depth = walk.depth[walk.size]
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


def char_keys(list units, Py_ssize_t root, bytes widths) -> object:
    """Every key no longer than one UTF-8 char of 1 to 3 bytes, partial chars included, as
    the reference `char_keys` finds them (in another order); None for a trie that is not a tree."""
    cdef _Walk walk = _Walk(units, widths)
    cdef _Edges trie = walk.trie
    cdef list keys = []
    cdef Py_ssize_t index, depth, base
    cdef unsigned char key[4]
    cdef const unsigned char* width_of = widths
    cdef uint32_t unit
    cdef int width
    if root < 0 or root >= trie.bases:
        return keys
    base, depth = root, 0
    while True:
        if not walk.push_children(base, depth):
            return None
        base = -1
        while base < 0 and walk.size:
            walk.size -= 1
            index = walk.index[walk.size]
            depth = walk.depth[walk.size]
            unit = trie.units[index]
            key[depth] = <unsigned char>(unit & 0xFF)
            width = width_of[key[0]]
            if width == 0 or width == 4:
                continue
            if unit & LEAF_BIT:
                keys.append(key[:depth + 1])
            if depth + 1 < width and (index ^ _offset(unit)) < trie.bases:
                base = index ^ _offset(unit)
                depth += 1
        if base < 0:
            return keys


@cython.final
cdef class Rewriter:
    """`longest_rule_rewrites` without protected strings, over a charsmap's units in C:
    SentencePiece's walk from each char of the text along the trie, the longest key that ends
    between chars applied."""

    cdef uint32_t* units
    cdef Py_ssize_t count
    cdef Py_ssize_t root
    cdef object replacement  # leaf unit index -> its replacement (`CharsMap._leaf_replacement`)
    cdef bytes pool  # the replacements, NUL-terminated UTF-8 (`CharsMap._pool`)
    cdef dict replacements  # the replacements of the leaves met so far, by leaf unit index

    def __cinit__(self, list units, Py_ssize_t root, object replacement, bytes pool) -> None:
        """Copy the units; `replacement` gives the text a leaf stands for, read from `pool` here
        when the blob is sound there (`replacement` names the fault otherwise)."""
        cdef Py_ssize_t index
        self.count = len(units)
        self.root = root
        self.replacement = replacement
        self.pool = pool
        self.replacements = {}
        self.units = <uint32_t*>PyMem_Malloc((self.count + 1) * sizeof(uint32_t))
        if self.units == NULL:
            raise MemoryError()
        for index in range(self.count):
            self.units[index] = units[index]

    def __dealloc__(self) -> None:
        """Free the units."""
        PyMem_Free(self.units)

    cdef Py_ssize_t _longest(self, const unsigned char* data, Py_ssize_t start, Py_ssize_t size,
                             Py_ssize_t* leaf) noexcept nogil:
        """The bytes of the longest key that prefixes data[start:size] and ends on a char
        boundary (0: none), its leaf unit in `leaf` (`_longest_on_boundary` in C)."""
        cdef Py_ssize_t pos = self.root, i, best = 0
        cdef bint ends
        for i in range(start, size):
            pos = self._child(pos, data[i], &ends)
            if pos < 0:
                break
            if ends and pos >= self.count:  # a malformed blob: the caller reports it
                leaf[0] = pos
                return -1
            if ends and (i + 1 == size or (data[i + 1] & 0xC0) != 0x80):
                best = i + 1 - start
                leaf[0] = pos
        return best

    cdef inline Py_ssize_t _child(self, Py_ssize_t pos, unsigned char byte, bint* ends) noexcept nogil:
        """The node the edge labelled `byte` leads to from node `pos`, -1 if there is none (a NUL
        byte has none); `ends` tells whether a key ends on that edge."""
        cdef uint32_t unit
        if not byte:
            return -1
        pos ^= byte
        if pos < 0 or pos >= self.count:
            return -1
        unit = self.units[pos]
        if unit & LABEL_MASK != byte:
            return -1
        ends[0] = (unit & LEAF_BIT) != 0
        return pos ^ _offset(unit)

    cdef Py_ssize_t _prefix_leaf(self, const unsigned char* data, Py_ssize_t size, bint shortest) noexcept nogil:
        """The leaf unit of the shortest (or the longest) key that prefixes data[:size], ending
        at any byte; -1 when none does (`charsmap._prefix_walk` in C)."""
        cdef Py_ssize_t pos = self.root, i, leaf = -1
        cdef bint ends
        for i in range(size):
            pos = self._child(pos, data[i], &ends)
            if pos < 0:
                break
            if ends:
                leaf = pos
                if shortest or pos >= self.count:  # past the units: the caller reports it
                    break
        return leaf

    def char_rules(self, object codes, bint shortest) -> dict:
        """code point -> the replacement of the shortest (HF's Precompiled) or the longest
        (SentencePiece) key that prefixes the char's UTF-8 alone, for each of `codes`; a char
        no key prefixes is left out (`CharsMap.shortest_match` / `longest_match` per char)."""
        cdef dict found = {}
        cdef bytes data
        cdef Py_ssize_t leaf
        if self.count == 0:
            return found
        for code in codes:
            data = chr(code).encode("utf-8", "surrogatepass")
            leaf = self._prefix_leaf(data, len(data), shortest)
            if leaf >= 0:
                found[code] = self._replacement_of(leaf)
        return found

    def normalized(self, str text) -> str:
        """`text` with every rewrite of `rewrites` applied (SentencePiece's normalized string)."""
        cdef list pieces = []
        cdef Py_ssize_t done = 0, start, chars
        cdef str replacement
        for start, chars, replacement in self.rewrites(text):
            pieces += (text[done:start], replacement)
            done = start + chars
        return "".join(pieces) + text[done:] if pieces else text

    def expansion(self, str text) -> object:
        """`text` rewritten (as `normalized` gives it) and, for each of its chars, the index of
        the char of `text` it stands for (a replacement's chars stand for the first char they
        replace: `sentencepiece_normalize`'s sources), or None in place of that list when every
        rewrite puts one char for one (each char then stands for its own); None when nothing is
        rewritten."""
        cdef list found = self.rewrites(text)
        cdef list pieces = [], sources
        cdef Py_ssize_t done = 0, start, chars
        cdef bint one_for_one = True
        cdef str replacement
        if not found:
            return None
        for start, chars, replacement in found:
            pieces += (text[done:start], replacement)
            one_for_one = one_for_one and chars == 1 and len(replacement) == 1
            done = start + chars
        pieces.append(text[done:])
        if one_for_one:
            return "".join(pieces), None
        sources = []
        done = 0
        for start, chars, replacement in found:
            sources += range(done, start)
            sources += [start] * len(replacement)
            done = start + chars
        sources += range(done, len(text))
        return "".join(pieces), sources

    cdef str _replacement_of(self, Py_ssize_t leaf):
        """The replacement a leaf holds (read from the blob once per leaf)."""
        cdef object found = self.replacements.get(leaf)
        if found is None:
            found = self._pool_text(leaf)
            if found is None:
                found = self.replacement(leaf)  # raises FormatError, naming the fault
            self.replacements[leaf] = found
        return found

    cdef object _pool_text(self, Py_ssize_t leaf):
        """The NUL-terminated UTF-8 text at the pool offset a leaf holds (`CharsMap._replacement`
        in C); None where the blob is damaged there."""
        cdef Py_ssize_t offset, end, size = len(self.pool)
        cdef const char* raw = self.pool
        if leaf < 0 or leaf >= self.count:
            return None
        offset = self.units[leaf] & 0x7FFFFFFF
        if offset > size:
            return None
        end = offset
        while end < size and raw[end] != 0:
            end += 1
        try:
            return raw[offset:end].decode("utf-8")
        except UnicodeDecodeError:
            return None

    def rewrites(self, str text) -> list:
        """Where SentencePiece's normalizer rewrites `text`: (start, chars covered, replacement)."""
        cdef bytes data = text.encode("utf-8", "surrogatepass")
        cdef const unsigned char* raw = data
        cdef Py_ssize_t size = len(data), byte = 0, char_index = 0, length, end, chars
        cdef Py_ssize_t leaf = 0
        cdef list found = []
        if self.count == 0:
            return found
        while byte < size:
            length = self._longest(raw, byte, size, &leaf)
            if length < 0:
                self.replacement(leaf)  # raises FormatError, naming the leaf
            if length <= 0:
                byte += 1
                while byte < size and (raw[byte] & 0xC0) == 0x80:
                    byte += 1
                char_index += 1
                continue
            end = byte + length
            chars = 0
            while byte < end:
                byte += 1
                if byte == size or (raw[byte] & 0xC0) != 0x80:
                    chars += 1
            found.append((char_index, chars, self._replacement_of(leaf)))
            char_index += chars
        return found
