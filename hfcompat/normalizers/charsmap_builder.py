"""Build a SentencePiece precompiled charsmap from rules {source text: normalized text}.

The inverse of `CharsMap.from_bytes` (see charsmap.py for the layout). The trie is a
Darts-clone double array, as sentencepiece's reader walks it: the node at unit `p` keeps its
children at `base ^ label` where `base = p ^ offset(unit p)`; a child's unit holds its label
byte; a node that ends a key has the leaf bit and its value (the replacement's pool offset,
with bit 31 set) at `base ^ 0`. Free units are labelled so that they answer no node's query.
Bases are found first-fit: simple, not size-optimal.
"""

from __future__ import annotations

import struct
from collections import deque
from typing import Mapping

from ..errors import FormatError

FIELD = "precompiled_charsmap"
_LEAF_BIT = 1 << 8
_VALUE_BIT = 1 << 31
_BLOCK = 256
_MAX_OFFSET = 1 << 21  # offsets below this fit a unit without the 8-bit shift


def build_charsmap(rules: Mapping[str, str]) -> bytes:
    """The precompiled charsmap blob for these rules (b"" for none, which means identity)."""
    if not rules:
        return b""
    _check_rules(rules)
    pool, offsets = _pool(rules.values())
    keys = sorted((source.encode("utf-8"), offsets[target]) for source, target in rules.items())
    units = _double_array(keys)
    trie = struct.pack(f"<{len(units)}I", *units)
    return struct.pack("<I", len(trie)) + trie + pool


def _check_rules(rules: Mapping[str, str]) -> None:
    """Keys must be non-empty; no key or value may hold a NUL or a lone surrogate."""
    for source, target in rules.items():
        if not source:
            raise FormatError("a rule has an empty source", field=FIELD)
        for text in (source, target):
            if "\0" in text:
                raise FormatError(f"rule {source!r} holds a NUL char", field=FIELD)
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise FormatError(f"rule {source!r} holds a lone surrogate", field=FIELD) from None


def _pool(targets: object) -> tuple[bytes, dict[str, int]]:
    """Each distinct replacement once, sorted, NUL-terminated; and its byte offset."""
    offsets: dict[str, int] = {}
    parts: list[bytes] = []
    size = 0
    for target in sorted(set(targets)):  # type: ignore[call-overload]
        offsets[target] = size
        data = target.encode("utf-8") + b"\0"
        parts.append(data)
        size += len(data)
    return b"".join(parts), offsets


def _byte_trie(keys: list[tuple[bytes, int]]) -> tuple[list[dict[int, int]], list[int | None]]:
    """A byte trie: children (label -> node) and value per node; node 0 is the root."""
    children: list[dict[int, int]] = [{}]
    values: list[int | None] = [None]
    for key, value in keys:
        node = 0
        for byte in key:
            child = children[node].get(byte)
            if child is None:
                child = len(children)
                children[node][byte] = child
                children.append({})
                values.append(None)
            node = child
        values[node] = value
    return children, values


def _encode_offset(offset: int) -> int:
    """The offset bits of a unit (bits 10..30, bit 9 for the 8-bit shift)."""
    if offset < _MAX_OFFSET:
        return offset << 10
    if offset % _BLOCK or offset >> 8 >= _MAX_OFFSET:
        raise FormatError(f"the trie is too large (offset {offset})", field=FIELD)
    return (offset >> 8) << 10 | 1 << 9


# A shared subtree: the value ending there (or None) and its (label, subtree id) children.
_Subtree = tuple["int | None", tuple[tuple[int, int], ...]]


def _subtrees(children: list[dict[int, int]], values: list["int | None"]) -> tuple[list[int], list[_Subtree]]:
    """Each node's subtree id, and each distinct subtree once: equal suffixes share units."""
    ids = [0] * len(children)
    known: dict[_Subtree, int] = {}
    for node in range(len(children) - 1, -1, -1):  # children come after their parent
        subtree = (values[node], tuple((label, ids[child]) for label, child in sorted(children[node].items())))
        ids[node] = known.setdefault(subtree, len(known))
    return ids, list(known)


class _Layout:
    """The growing unit array, a linked list of its free units, and the bases taken."""

    def __init__(self) -> None:
        self.units: list[int] = []
        self.next: list[int] = []  # free list links (-1 ends it)
        self.prev: list[int] = []
        self.used = bytearray()
        self.head = -1
        self.tail = -1
        self.bases: set[int] = {0}  # a node based at 0 would find the root's unit under label 0
        self._grow()
        self.take(0)  # the root's unit

    def _grow(self) -> None:
        """Append one block of free units."""
        start = len(self.units)
        self.bases.add(start | _SPARE)
        self.units.extend([0] * _BLOCK)
        self.used.extend(bytes(_BLOCK))
        self.next.extend(range(start + 1, start + _BLOCK + 1))
        self.prev.extend(range(start - 1, start + _BLOCK - 1))
        self.next[-1] = -1
        self.prev[start] = self.tail
        if self.tail >= 0:
            self.next[self.tail] = start
        else:
            self.head = start
        self.tail = start + _BLOCK - 1

    def take(self, index: int) -> None:
        """Mark a free unit used."""
        self._unlink(index)
        self.used[index] = 1

    def _unlink(self, index: int) -> None:
        """Take a free unit off the free list."""
        before, after = self.prev[index], self.next[index]
        if before >= 0:
            self.next[before] = after
        else:
            self.head = after
        if after >= 0:
            self.prev[after] = before
        else:
            self.tail = before

    def _fits(self, base: int, labels: list[int]) -> bool:
        """True when `base` is new and its slots for these labels are free."""
        return base not in self.bases and base ^ labels[-1] < len(self.used) and \
            not any(self.used[base ^ label] for label in labels)

    def find_base(self, labels: list[int]) -> int:
        """The first base whose slots for these labels are free, searched among the free
        units of the last few blocks (older free units stay unused: the search stays short)."""
        while self.head >= 0 and self.head < len(self.units) - _WINDOW:
            self._unlink(self.head)
        slot = self.head
        while True:
            if slot < 0:
                slot = len(self.units)
                self._grow()
            base = slot ^ labels[0]
            if self._fits(base, labels):
                return base
            slot = self.next[slot]


_WINDOW = 8 * _BLOCK
_SPARE = 0xFF  # the low byte of each block's base that stays free


def _double_array(keys: list[tuple[bytes, int]]) -> list[int]:
    """The Darts-clone units of a trie over these (key, value) pairs, equal subtrees shared."""
    ids, subtrees = _subtrees(*_byte_trie(keys))
    layout = _Layout()
    bases: dict[int, int] = {ids[0]: -1}
    pending: list[tuple[int, int]] = [(0, ids[0])]  # (unit index, subtree id its offset leads to)
    queue = deque([ids[0]])
    while queue:
        subtree = queue.popleft()
        value, kids = subtrees[subtree]
        labels = ([0] if value is not None else []) + [label for label, _ in kids]
        base = layout.find_base(sorted(labels))
        layout.bases.add(base)
        for label in labels:
            layout.take(base ^ label)
        if value is not None:
            layout.units[base] = _VALUE_BIT | value
        for label, kid in kids:
            index = base ^ label
            layout.units[index] = label | (_LEAF_BIT if subtrees[kid][0] is not None else 0)
            pending.append((index, kid))
            if kid not in bases:
                bases[kid] = -1
                queue.append(kid)
        bases[subtree] = base
    for index, kid in pending:
        layout.units[index] |= _encode_offset(index ^ bases[kid])
    _label_free_units(layout)
    return layout.units


def _label_free_units(layout: _Layout) -> None:
    """Label each free unit as a child of its block's spare base, which no node has, so that
    no walk can step on it."""
    for index, used in enumerate(layout.used):
        if not used:
            layout.units[index] = (index ^ _SPARE) & 0xFF
