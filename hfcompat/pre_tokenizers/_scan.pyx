# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twin of `Scanner` in `scanned_patterns.py` (the same constructor and methods;
the patterns themselves, run by `regex`, are the reference of both): a text's pieces found by
one walk over its chars' classes.

`Scanner` reads each char's class bits from a table of 256-char blocks that a Python callback
fills (`block_classes`: the regex engine's own answer) the first time a block is met.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint8_t, uint16_t, uint32_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_2BYTE_KIND
    object PyBytes_FromStringAndSize(const char* data, Py_ssize_t size)

__all__ = ["Scanner"]


cdef enum:
    LETTER = 1
    NUMBER = 2
    SPACE = 4
    CLASSES = 7
    FOLD_SHIFT = 3  # bits 3-6: the contraction letter a char folds to under (?i), from 1
    PUNCTUATION = 0x80  # bit 7: BERT's punctuation
    EXACT_SHIFT = 8  # bits 8-11: the contraction letter the char is (ASCII lowercase)
    BLANK = 0x1000  # " "
    APOSTROPHE = 0x2000  # "'"
    LINE_END = 0x4000  # "\r" or "\n"
    BLOCKS = 0x1100

# The contraction letters "sdmtlvre" numbered from 1, as scanned_patterns.CONTRACTION_LETTERS.
cdef enum:
    S_ = 1
    D_ = 2
    M_ = 3
    T_ = 4
    L_ = 5
    V_ = 6
    R_ = 7
    E_ = 8


@cython.final
cdef class Scanner:
    """One ScanRule: `split` and `findall` give what the rule's regex gives."""

    cdef uint8_t* blocks[BLOCKS]
    cdef object classify  # block number -> the 256 class bytes of its chars
    cdef bint prefixed, folded, to_end, bert
    cdef Py_ssize_t digits

    def __cinit__(self, object classify, bint prefixed, bint folded, Py_ssize_t digits, bint whitespace_to_end,
                  bint bert=False):
        self.classify = classify
        self.prefixed = prefixed
        self.folded = folded
        self.digits = digits
        self.to_end = whitespace_to_end
        self.bert = bert

    def __dealloc__(self) -> None:
        cdef Py_ssize_t i
        for i in range(BLOCKS):
            if self.blocks[i] != NULL:
                PyMem_Free(self.blocks[i])

    cdef uint8_t* _block(self, Py_ssize_t number) except NULL:
        """The class bytes of block `number`, asked of the callback once."""
        cdef bytes data = self.classify(number)
        if len(data) != 256:
            raise ValueError("a block's classes are 256 bytes")
        cdef uint8_t* block = <uint8_t*>PyMem_Malloc(256)
        if block == NULL:
            raise MemoryError()
        memcpy(block, <const char*>data, 256)
        if self.blocks[number] != NULL:  # another thread filled it while the callback ran
            PyMem_Free(block)
            return self.blocks[number]
        self.blocks[number] = block
        return block

    cdef int _classes(self, str text, uint16_t* out) except -1:
        """Every char's class bits, with the literal chars the rules name."""
        cdef Py_ssize_t i = 0
        cdef Py_UCS4 char_
        cdef uint32_t ch
        cdef uint8_t* block
        cdef uint16_t bits
        for char_ in text:
            ch = <uint32_t>char_
            block = self.blocks[ch >> 8]
            if block == NULL:
                block = self._block(ch >> 8)
            bits = block[ch & 255]
            if ch < 128:
                if ch == 32:
                    bits |= BLANK
                elif ch == 39:
                    bits |= APOSTROPHE
                elif ch == 10 or ch == 13:
                    bits |= LINE_END
                elif ch == 115:
                    bits |= S_ << EXACT_SHIFT
                elif ch == 100:
                    bits |= D_ << EXACT_SHIFT
                elif ch == 109:
                    bits |= M_ << EXACT_SHIFT
                elif ch == 116:
                    bits |= T_ << EXACT_SHIFT
                elif ch == 108:
                    bits |= L_ << EXACT_SHIFT
                elif ch == 118:
                    bits |= V_ << EXACT_SHIFT
                elif ch == 114:
                    bits |= R_ << EXACT_SHIFT
                elif ch == 101:
                    bits |= E_ << EXACT_SHIFT
            out[i] = bits
            i += 1
        return 0

    cdef inline int _letter(self, uint16_t bits) noexcept nogil:
        """The contraction letter of a ch: folded under (?i), else only itself."""
        return (bits >> FOLD_SHIFT) & 15 if self.folded else (bits >> EXACT_SHIFT) & 15

    cdef Py_ssize_t _contraction(self, const uint16_t* k, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
        """The end of `'s|'t|'re|'ve|'m|'ll|'d` at i, or i."""
        cdef int first, second
        if not (k[i] & APOSTROPHE) or i + 1 >= n:
            return i
        first = self._letter(k[i + 1])
        if S_ <= first <= T_:
            return i + 2
        if i + 2 < n:
            second = self._letter(k[i + 2])
            if (first == L_ and second == L_) or ((first == V_ or first == R_) and second == E_):
                return i + 3
        return i

    cdef Py_ssize_t _whitespace(self, const uint16_t* k, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
        """The end of the whitespace piece at i (k[i] is whitespace): `\\s++$`, cl100k's
        `\\s*[\\r\\n]+`, `\\s+(?!\\S)`, then one ch."""
        cdef Py_ssize_t j = i + 1, last = -1
        while j < n and k[j] & SPACE:
            j += 1
        if j == n and self.to_end:
            return n
        if self.prefixed:
            for last in range(j - 1, i - 1, -1):
                if k[last] & LINE_END:
                    return last + 1
        if j == n:
            return n
        if j - i >= 2:
            return j - 1
        return i + 1

    cdef Py_ssize_t _bert_end(self, const uint16_t* k, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
        """BERT's: one punctuation ch, a run of whitespace, or a run of the other chs."""
        cdef Py_ssize_t j = i + 1
        if k[i] & PUNCTUATION:
            return j
        if k[i] & SPACE:
            while j < n and k[j] & SPACE:
                j += 1
            return j
        while j < n and not (k[j] & (SPACE | PUNCTUATION)):
            j += 1
        return j

    cdef Py_ssize_t _end(self, const uint16_t* k, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
        """The end of the piece that starts at i (every ch starts or continues one)."""
        cdef uint16_t bits = k[i]
        cdef Py_ssize_t j = self._contraction(k, i, n)
        cdef uint16_t run
        if j > i:
            return j
        if self.prefixed:
            if bits & LETTER or (not (bits & (LINE_END | LETTER | NUMBER)) and i + 1 < n and k[i + 1] & LETTER):
                j = i + 1
                while j < n and k[j] & LETTER:
                    j += 1
                return j
            if bits & NUMBER:
                j = i + 1
                while j < n and k[j] & NUMBER and (self.digits == 0 or j - i < self.digits):
                    j += 1
                return j
            j = i + 1 if bits & BLANK and i + 1 < n and not (k[i + 1] & CLASSES) else i
            if not (k[j] & CLASSES):
                j += 1
                while j < n and not (k[j] & CLASSES):
                    j += 1
                while j < n and k[j] & LINE_END:
                    j += 1
                return j
            return self._whitespace(k, i, n)
        # GPT-2's: " ?" and a run of letters, of digits or of other chars
        j = i + 1 if bits & BLANK and i + 1 < n else i
        run = k[j] & CLASSES
        if run == SPACE and j > i:  # no run after the blank: the blank is whitespace
            j = i
            run = SPACE
        if run != SPACE:
            j += 1
            while j < n and (k[j] & CLASSES) == run:
                j += 1
            return j
        return self._whitespace(k, i, n)

    cdef Py_ssize_t _ends(self, str text, Py_ssize_t* starts, Py_ssize_t* ends) except -1:
        """Write where every piece starts and ends into `starts` and `ends` (room for one per
        char); their count. Every ch starts or continues a piece, but BERT's whitespace runs
        are dropped."""
        cdef Py_ssize_t n = len(text), i = 0, j, count = 0
        cdef uint16_t* k = <uint16_t*>PyMem_Malloc((n + 1) * sizeof(uint16_t))
        if k == NULL:
            raise MemoryError()
        try:
            self._classes(text, k)
            while i < n:
                j = self._bert_end(k, i, n) if self.bert else self._end(k, i, n)
                if not (self.bert and (k[i] & (SPACE | PUNCTUATION)) == SPACE):
                    starts[count] = i
                    ends[count] = j
                    count += 1
                i = j
            return count
        finally:
            PyMem_Free(k)

    cdef list _pieces(self, str text, list starts):
        """The pieces of `text`, and (when `starts` is a list) their start chars appended to it."""
        cdef Py_ssize_t room = (len(text) + 1) * sizeof(Py_ssize_t)
        cdef Py_ssize_t* found = <Py_ssize_t*>PyMem_Malloc(2 * room)
        cdef Py_ssize_t count, index
        cdef list pieces = []
        if found == NULL:
            raise MemoryError()
        try:
            count = self._ends(text, found, found + len(text) + 1)
            for index in range(count):
                pieces.append(text[found[index]:found[len(text) + 1 + index]])
                if starts is not None:
                    starts.append(found[index])
            return pieces
        finally:
            PyMem_Free(found)

    def split(self, str text) -> tuple:
        """(pieces, their start chars): the pattern's matches (which tile the text, but for BERT's)."""
        cdef list starts = []
        return self._pieces(text, starts), starts

    def utf8_ends(self, str text) -> bytes:
        """Where each piece ends in the UTF-8 bytes of `text`, packed as Py_ssize_t (what
        `MergeTable.encode_utf8_spans` reads)."""
        return self.utf8_ends_batch([text])[0]

    def utf8_ends_batch(self, list texts) -> tuple:
        """`utf8_ends` of texts laid end to end (their UTF-8 bytes joined), and how many pieces
        each text has, both packed as Py_ssize_t."""
        cdef Py_ssize_t room = sum([len(text) for text in texts]) + 1, count, total = 0, piece, chars, size = 0
        cdef Py_ssize_t* ends = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
        cdef Py_ssize_t* starts = <Py_ssize_t*>PyMem_Malloc(room * sizeof(Py_ssize_t))
        cdef Py_ssize_t* counts = <Py_ssize_t*>PyMem_Malloc((len(texts) + 1) * sizeof(Py_ssize_t))
        cdef Py_ssize_t index = 0
        cdef Py_UCS4 char_
        cdef uint32_t code
        cdef str text
        try:
            if ends == NULL or starts == NULL or counts == NULL:
                raise MemoryError()
            for text in texts:
                count = self._ends(text, starts + total, ends + total)
                piece = total
                chars = 0
                for char_ in text:
                    code = <uint32_t>char_
                    size += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
                    chars += 1
                    if piece < total + count and chars == ends[piece]:
                        ends[piece] = size
                        piece += 1
                counts[index] = count
                index += 1
                total += count
            return (PyBytes_FromStringAndSize(<const char*>ends, total * sizeof(Py_ssize_t)),
                    PyBytes_FromStringAndSize(<const char*>counts, index * sizeof(Py_ssize_t)))
        finally:
            PyMem_Free(ends)
            PyMem_Free(starts)
            PyMem_Free(counts)

    def byte_pieces(self, str text, str alphabet) -> list:
        """The pieces, each as the chars of its UTF-8 bytes in `alphabet` (256 chars, byte
        order): what ByteLevel's mapping makes of every piece."""
        cdef uint16_t table[256]
        cdef Py_ssize_t n = len(text), count, index, i, size
        cdef Py_ssize_t* ends
        cdef Py_ssize_t* starts
        cdef uint16_t* units
        cdef uint32_t code
        cdef Py_UCS4 char_
        cdef list pieces = []
        if len(alphabet) != 256:
            raise ValueError("a byte alphabet has 256 chars")
        for i in range(256):
            code = <uint32_t>(<Py_UCS4>alphabet[i])
            if code > 0xFFFF:
                raise ValueError("byte chars are in the BMP")
            table[i] = <uint16_t>code
        ends = <Py_ssize_t*>PyMem_Malloc((n + 1) * sizeof(Py_ssize_t))
        starts = <Py_ssize_t*>PyMem_Malloc((n + 1) * sizeof(Py_ssize_t))
        units = <uint16_t*>PyMem_Malloc((4 * n + 1) * sizeof(uint16_t))
        try:
            if ends == NULL or starts == NULL or units == NULL:
                raise MemoryError()
            count = self._ends(text, starts, ends)
            for index in range(count):
                size = 0
                for i in range(starts[index], ends[index]):
                    char_ = text[i]
                    code = <uint32_t>char_
                    if code < 0x80:
                        units[size] = table[code]
                        size += 1
                    elif code < 0x800:
                        units[size] = table[0xC0 | (code >> 6)]
                        units[size + 1] = table[0x80 | (code & 0x3F)]
                        size += 2
                    elif code < 0x10000:
                        if 0xD800 <= code < 0xE000:
                            raise UnicodeEncodeError("utf-8", text, i, i + 1, "surrogates not allowed")
                        units[size] = table[0xE0 | (code >> 12)]
                        units[size + 1] = table[0x80 | ((code >> 6) & 0x3F)]
                        units[size + 2] = table[0x80 | (code & 0x3F)]
                        size += 3
                    else:
                        units[size] = table[0xF0 | (code >> 18)]
                        units[size + 1] = table[0x80 | ((code >> 12) & 0x3F)]
                        units[size + 2] = table[0x80 | ((code >> 6) & 0x3F)]
                        units[size + 3] = table[0x80 | (code & 0x3F)]
                        size += 4
                pieces.append(PyUnicode_FromKindAndData(PyUnicode_2BYTE_KIND, units, size))
            return pieces
        finally:
            PyMem_Free(ends)
            PyMem_Free(starts)
            PyMem_Free(units)

    def findall(self, str text) -> list:
        """The pattern's matches, as `regex`'s findall gives them."""
        return self._pieces(text, None)
