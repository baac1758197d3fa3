"""Encoding: the output of a tokenizer (ids, tokens, offsets, masks, words, overflow).

Mirrors `tokenizers.Encoding` (0.23.3): the same fields, the same merge rules for
overflowing parts, the same truncation windows and padding.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .errors import TokenizationError

Offsets = tuple[int, int]

_STRIDE_MESSAGE = (
    "`stride` must be strictly less than `max_len={}` (note that `max_len` may be shorter than "
    "the max length of the original model, as it subtracts the number of special characters"
)


def direction_name(direction: str, what: str = "truncation") -> str:
    """Return "left" or "right" for any spelling of a direction ("Left", "right", ...)."""
    lowered = direction.lower() if isinstance(direction, str) else direction
    if lowered not in ("left", "right"):
        if what == "truncation":
            raise ValueError(f"Invalid truncation direction value : {direction}")
        raise ValueError(f"Unknown `direction`: `{direction}`. Use one of `left` or `right`")
    return lowered


@dataclass(slots=True, repr=False)
class Encoding:
    """One encoded input (a sequence or a pair), as HF's `Encoding`.

    `offsets` are char offsets into the original text of the token's sequence; `word_ids`
    is HF's "words"; `sequence_ranges` maps a sequence index to its token range (start, end);
    empty means one sequence covering everything.
    """

    ids: list[int] = field(default_factory=list)
    type_ids: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    offsets: list[Offsets] = field(default_factory=list)
    special_tokens_mask: list[int] = field(default_factory=list)
    attention_mask: list[int] = field(default_factory=list)
    word_ids: list[int | None] = field(default_factory=list)
    overflowing: list["Encoding"] = field(default_factory=list)
    sequence_ranges: dict[int, Offsets] = field(default_factory=dict)

    # ----- construction ---------------------------------------------------------------

    @classmethod
    def from_lists(cls, ids: list[int], tokens: list[str], offsets: list[Offsets],
                   word_ids: list[int | None] | None = None, type_id: int = 0) -> "Encoding":
        """The encoding of one sequence from parallel lists (taken, not copied)."""
        n = len(ids)
        return cls(ids, [type_id] * n, tokens, offsets, [0] * n, [1] * n,
                   [None] * n if word_ids is None else word_ids, [], {})

    def copy(self) -> "Encoding":
        """Return a deep copy (lists and overflowing encodings are new objects)."""
        return Encoding(self.ids[:], self.type_ids[:], self.tokens[:], self.offsets[:],
                        self.special_tokens_mask[:], self.attention_mask[:], self.word_ids[:],
                        [o.copy() for o in self.overflowing], dict(self.sequence_ranges))

    def to_state(self) -> dict[str, Any]:
        """HF's serialized form of an Encoding (the JSON its pickling writes)."""
        return {
            "ids": list(self.ids), "type_ids": list(self.type_ids), "tokens": list(self.tokens),
            "words": list(self.word_ids), "offsets": [[start, end] for start, end in self.offsets],
            "special_tokens_mask": list(self.special_tokens_mask),
            "attention_mask": list(self.attention_mask),
            "overflowing": [overflow.to_state() for overflow in self.overflowing],
            "sequence_ranges": {str(seq_id): {"start": start, "end": end}
                                for seq_id, (start, end) in self.sequence_ranges.items()},
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "Encoding":
        """Rebuild an Encoding from HF's serialized form (see `to_state`)."""
        return cls(list(state["ids"]), list(state["type_ids"]), list(state["tokens"]),
                   [(start, end) for start, end in state["offsets"]],
                   list(state["special_tokens_mask"]), list(state["attention_mask"]),
                   list(state["words"]), [cls.from_state(o) for o in state["overflowing"]],
                   {int(seq_id): (span["start"], span["end"])
                    for seq_id, span in state["sequence_ranges"].items()})

    def __repr__(self) -> str:
        return (f"Encoding(num_tokens={len(self.ids)}, attributes=[ids, type_ids, tokens, offsets, "
                f"attention_mask, special_tokens_mask, overflowing])")

    # ----- sizes and sequences --------------------------------------------------------

    def __len__(self) -> int:
        return len(self.ids)

    def is_empty(self) -> bool:
        """Whether the encoding holds no token."""
        return not self.ids

    @property
    def words(self) -> list[int | None]:
        """HF's deprecated name for `word_ids`."""
        return self.word_ids

    @property
    def n_sequences(self) -> int:
        """The number of input sequences merged into this encoding."""
        return len(self.sequence_ranges) or 1

    def set_sequence_id(self, sequence_id: int) -> None:
        """Mark the whole encoding as belonging to the given sequence."""
        self.sequence_ranges[sequence_id] = (0, len(self.ids))

    def _sequence_range(self, sequence_id: int) -> Offsets:
        """The token range of a sequence; the whole encoding when it is not recorded."""
        return self.sequence_ranges.get(sequence_id, (0, len(self.ids)))

    @property
    def sequence_ids(self) -> list[int | None]:
        """For each token, the index of its sequence, or None for special tokens."""
        result: list[int | None] = [None] * len(self.ids)
        for seq_id in range(self.n_sequences):
            start, end = self._sequence_range(seq_id)
            result[start:end] = [seq_id] * (end - start)
        return result

    # ----- mappings (as HF's Python Encoding returns them) ----------------------------

    def token_to_sequence(self, token_index: int) -> int | None:
        """The sequence that holds the token (HF quirk: index == len still answers)."""
        if token_index > len(self.ids):
            return None
        if not self.sequence_ranges:
            return 0
        for seq_id, (start, end) in self.sequence_ranges.items():
            if start <= token_index < end:
                return seq_id
        return None

    def token_to_chars(self, token_index: int) -> Offsets | None:
        """The offsets of the token, within its own sequence's text."""
        if self.token_to_sequence(token_index) is None or not 0 <= token_index < len(self.offsets):
            return None
        return self.offsets[token_index]

    def token_to_word(self, token_index: int) -> int | None:
        """The word index of the token within its own sequence."""
        if self.token_to_sequence(token_index) is None or not 0 <= token_index < len(self.word_ids):
            return None
        return self.word_ids[token_index]

    def word_to_tokens(self, word_index: int, sequence_index: int = 0) -> Offsets | None:
        """The token range (start, end) of a word of the given sequence."""
        seq_start, seq_end = self._sequence_range(sequence_index)
        if seq_end > len(self.word_ids) or seq_start > seq_end:
            return None
        start: int | None = None
        end = 0
        for i in range(seq_start, seq_end):
            word = self.word_ids[i]
            if word is not None and word > word_index:
                break
            if word == word_index:
                if start is None:
                    start = i
                end = i + 1
        return None if start is None else (start, end)

    def word_to_chars(self, word_index: int, sequence_index: int = 0) -> Offsets | None:
        """The char span of a word of the given sequence."""
        span = self.word_to_tokens(word_index, sequence_index)
        if span is None:
            return None
        return (self.offsets[span[0]][0], self.offsets[span[1] - 1][1])

    def char_to_token(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The first token of the given sequence whose span holds the char."""
        seq_start, seq_end = self._sequence_range(sequence_index)
        if seq_end > len(self.offsets) or seq_start > seq_end:
            return None
        for i in range(seq_start, seq_end):
            start, end = self.offsets[i]
            if start <= char_pos < end:
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0) -> int | None:
        """The word of the given sequence that holds the char."""
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)

    # ----- merging ------------------------------------------------------------------------

    @classmethod
    def merge(cls, encodings: list["Encoding"], growing_offsets: bool = True) -> "Encoding":
        """Concatenate encodings into a new one (the inputs are left unchanged)."""
        merged = cls()
        for encoding in encodings:
            merged.merge_with(encoding, growing_offsets)
        return merged

    def merge_with(self, pair: "Encoding", growing_offsets: bool = True) -> None:
        """Append `pair` in place; overflowing parts combine as HF's cross product.

        Each of our overflowing parts is joined with `pair` and with each of its
        overflowing parts, then we are joined with each of its overflowing parts.
        `pair` is only read.
        """
        overflowings = []
        for own in self.overflowing:
            joined = own.copy()
            joined.merge_with(pair, growing_offsets)
            overflowings.append(joined)
            for other in pair.overflowing:
                joined = own.copy()
                joined.merge_with(other, growing_offsets)
                overflowings.append(joined)
        for other in pair.overflowing:
            joined = self.copy()
            joined.merge_with(other, growing_offsets)
            overflowings.append(joined)

        base = len(self.ids)
        for seq_id, (start, end) in pair.sequence_ranges.items():
            self.sequence_ranges[seq_id] = (base + start, base + end)
        self.ids.extend(pair.ids)
        self.type_ids.extend(pair.type_ids)
        self.tokens.extend(pair.tokens)
        self.word_ids.extend(pair.word_ids)
        shift = self.offsets[-1][1] if growing_offsets and self.offsets else 0
        if shift:
            self.offsets.extend([(start + shift, end + shift) for start, end in pair.offsets])
        else:
            self.offsets.extend(pair.offsets)
        self.special_tokens_mask.extend(pair.special_tokens_mask)
        self.attention_mask.extend(pair.attention_mask)
        self.overflowing = overflowings

    # ----- truncation and padding -----------------------------------------------------------

    def _window(self, start: int, stop: int) -> "Encoding":
        """A new encoding holding tokens [start, stop), without overflow or sequence ranges."""
        return Encoding(self.ids[start:stop], self.type_ids[start:stop], self.tokens[start:stop],
                        self.offsets[start:stop], self.special_tokens_mask[start:stop],
                        self.attention_mask[start:stop], self.word_ids[start:stop], [], {})

    def truncate(self, max_length: int, stride: int = 0, direction: str = "right") -> None:
        """Keep `max_length` tokens in place; the rest becomes overflowing windows.

        Each window repeats the last `stride` tokens of the previous one. Existing
        overflowing parts and sequence ranges are dropped, as HF does.
        """
        direction = direction_name(direction)
        n = len(self.ids)
        if max_length >= n:
            return
        if max_length == 0:
            whole = Encoding(self.ids, self.type_ids, self.tokens, self.offsets,
                             self.special_tokens_mask, self.attention_mask, self.word_ids,
                             self.overflowing, self.sequence_ranges)
            self.ids, self.type_ids, self.tokens, self.offsets = [], [], [], []
            self.special_tokens_mask, self.attention_mask, self.word_ids = [], [], []
            self.overflowing, self.sequence_ranges = [whole], {}
            return
        if stride >= max_length:
            raise TokenizationError(_STRIDE_MESSAGE.format(max_length))

        windows = _window_ranges(n, max_length, max_length - stride, direction)
        parts = [self._window(start, stop) for start, stop in windows]
        first = parts[0]
        self.ids, self.type_ids, self.tokens, self.offsets = (
            first.ids, first.type_ids, first.tokens, first.offsets)
        self.special_tokens_mask, self.attention_mask, self.word_ids = (
            first.special_tokens_mask, first.attention_mask, first.word_ids)
        self.overflowing, self.sequence_ranges = parts[1:], {}

    def pad(self, length: int, pad_id: int = 0, pad_type_id: int = 0, pad_token: str = "[PAD]",
            direction: str = "right") -> None:
        """Pad in place (and every overflowing part) up to `length` tokens."""
        direction = direction_name(direction, "padding")
        for overflow in self.overflowing:
            overflow.pad(length, pad_id, pad_type_id, pad_token, direction)
        missing = length - len(self.ids)
        if missing <= 0:
            return
        if direction == "left":
            self.ids = [pad_id] * missing + self.ids
            self.type_ids = [pad_type_id] * missing + self.type_ids
            self.tokens = [pad_token] * missing + self.tokens
            no_words: list[int | None] = [None] * missing
            self.word_ids = no_words + self.word_ids
            self.attention_mask = [0] * missing + self.attention_mask
            self.special_tokens_mask = [1] * missing + self.special_tokens_mask
            self.offsets = [(0, 0)] * missing + self.offsets
            self.sequence_ranges = {seq_id: (start + missing, end + missing)
                                    for seq_id, (start, end) in self.sequence_ranges.items()}
        else:
            self.ids.extend([pad_id] * missing)
            self.type_ids.extend([pad_type_id] * missing)
            self.tokens.extend([pad_token] * missing)
            self.word_ids.extend([None] * missing)
            self.attention_mask.extend([0] * missing)
            self.special_tokens_mask.extend([1] * missing)
            self.offsets.extend([(0, 0)] * missing)


def _window_ranges(n: int, max_length: int, step: int, direction: str) -> list[Offsets]:
    """HF's truncation windows over n tokens: the kept one first, then the overflowing ones."""
    windows = []
    if direction == "right":
        for start in range(0, n, step):
            stop = min(start + max_length, n)
            windows.append((start, stop))
            if stop == n:
                break
    else:
        for last in range(n - 1, -1, -step):
            stop = last + 1
            start = max(stop - max_length, 0)
            windows.append((start, stop))
            if start == 0:
                break
    return windows


def _unpacking(name: str) -> property:
    """The field `name` of a PackedEncoding: a tuple until first read, then a list kept in place."""
    slot = Encoding.__dict__[name]  # the slot of the parent class

    def get(self: Encoding) -> list[Any]:
        value: Any = slot.__get__(self)  # a tuple until first read (no typing.cast: it runs per read)
        if value.__class__ is tuple:
            value = list(value)
            slot.__set__(self, value)
        listed: list[Any] = value
        return listed

    return property(get, slot.__set__, doc=f"`{name}` (a list once read)")


Row = tuple[Any, ...]  # a PackedEncoding's field as stored, before it is read

# The setters of Encoding's slots, for PackedEncoding.of.
_IDS_SLOT: Any = Encoding.__dict__["ids"]  # the parent's slot, under PackedEncoding's property
(_IDS, _TYPE_IDS, _TOKENS, _OFFSETS, _SPECIAL_TOKENS_MASK, _ATTENTION_MASK, _WORD_IDS, _OVERFLOWING,
 _SEQUENCE_RANGES) = (Encoding.__dict__[field.name].__set__ for field in fields(Encoding))


class PackedEncoding(Encoding):
    """An Encoding handed to the caller, its lists stored as tuples until read.

    A program that keeps many encodings alive pays for every list in each cyclic garbage
    collection; tuples of ints and strings drop out of the collector after its first pass.
    Reading a field turns it back into the list an Encoding holds, so all methods still work.
    """

    __slots__ = ()

    ids = _unpacking("ids")
    type_ids = _unpacking("type_ids")
    tokens = _unpacking("tokens")
    offsets = _unpacking("offsets")
    special_tokens_mask = _unpacking("special_tokens_mask")
    attention_mask = _unpacking("attention_mask")
    word_ids = _unpacking("word_ids")
    overflowing = _unpacking("overflowing")

    @classmethod
    def pack(cls, encoding: Encoding) -> "PackedEncoding":
        """A packed copy of a finished encoding (the encoding's lists are not kept)."""
        return cls.of(tuple(encoding.ids), tuple(encoding.type_ids), tuple(encoding.tokens),
                      tuple(encoding.offsets), tuple(encoding.special_tokens_mask),
                      tuple(encoding.attention_mask), tuple(encoding.word_ids),
                      tuple(encoding.overflowing), encoding.sequence_ranges)

    @classmethod
    def of(cls, ids: Row, type_ids: Row, tokens: Row, offsets: Row, special_tokens_mask: Row,
           attention_mask: Row, word_ids: Row, overflowing: Row,
           sequence_ranges: dict[int, Offsets]) -> "PackedEncoding":
        """A packed encoding of these fields, set in its slots directly: the dataclass's
        constructor would set each through its unpacking property (1 us of a short text)."""
        packed = object.__new__(cls)
        _IDS(packed, ids)
        _TYPE_IDS(packed, type_ids)
        _TOKENS(packed, tokens)
        _OFFSETS(packed, offsets)
        _SPECIAL_TOKENS_MASK(packed, special_tokens_mask)
        _ATTENTION_MASK(packed, attention_mask)
        _WORD_IDS(packed, word_ids)
        _OVERFLOWING(packed, overflowing)
        _SEQUENCE_RANGES(packed, sequence_ranges)
        return packed

    def __len__(self) -> int:
        return len(_IDS_SLOT.__get__(self))
