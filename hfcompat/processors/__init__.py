"""Post-processors: add special tokens, set type ids, trim offsets, as HF's `processors`.

Each has `added_tokens(is_pair)`, `process(encoding, pair, add_special_tokens)`,
`process_encodings(encodings, add_special_tokens)` (the per-sequence step that
`Sequence` chains) and `to_dict()`; `from_dict(d)` reads any of them.
`post_process` is the tokenizer's whole step: truncate, post-process, pad.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Union

from ..encoding import Encoding, PackedEncoding
from ..errors import FormatError, TokenizationError
from ..pipeline.bytelevel import BYTE_TO_CHAR
from ..pipeline.fields import as_bool, as_str, as_uint, component_list, field_value, require_object
from ..pipeline.normalized import is_whitespace
from ..pipeline.padding import PaddingParams, pad_encodings
from ..pipeline.truncation import TruncationParams, params_for_post_processing, truncate_encodings

SpecialPair = tuple[str, int]
_BYTE_LEVEL_SPACE = BYTE_TO_CHAR[ord(" ")]


class PostProcessor:
    """Base of the post-processors: `process` prepares the sequences, runs
    `process_encodings` and merges the result, as HF's `PostProcessor::process`."""

    def added_tokens(self, is_pair: bool) -> int:
        """How many special tokens `process` adds to a single sequence or a pair."""
        raise NotImplementedError

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        """HF's Python name for `added_tokens`."""
        return self.added_tokens(is_pair)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Transform the per-sequence encodings (one or two); they may be modified."""
        raise NotImplementedError

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int] | None:
        """The ids `process` gives for a single sequence of these ids (the specials laid out
        around them), for `Tokenizer.encode_ids`; None where only `process` can tell."""
        return None

    def single_layout(self, add_special_tokens: bool) -> "SingleLayout | None":
        """Where `process` puts a single sequence without overflowing parts, for `Tokenizer.encode`
        to lay a text's columns out at once; None where only `process` can tell (offsets
        trimmed, several steps)."""
        return None

    def process(self, encoding: Encoding, pair: Encoding | None = None,
                add_special_tokens: bool = True) -> Encoding:
        """Post-process a sequence (and its pair) into a new encoding; inputs stay unchanged."""
        copies = encoding.copy(), None if pair is None else pair.copy()
        return self.process_owned(*copies, add_special_tokens)

    def process_owned(self, encoding: Encoding, pair: Encoding | None,
                      add_special_tokens: bool) -> Encoding:
        """`process` for encodings the caller gives up (they may be changed and returned)."""
        encodings = [encoding] if pair is None else [encoding, pair]
        for index, current in enumerate(encodings):
            current.set_sequence_id(index)
            for overflow in current.overflowing:
                overflow.set_sequence_id(index)
            current.type_ids = [index] * len(current.ids)
        processed = self.process_encodings(encodings, add_special_tokens)
        if len(processed) == 1 and not processed[0].overflowing:
            return processed[0]  # what merging one encoding into an empty one gives
        return Encoding.merge(processed, False)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        raise NotImplementedError


class SingleLayout(NamedTuple):
    """A single sequence as a post-processor lays it out: the special tokens before and after
    it (ids, strings, type ids), the sequence's type id, and whether its token range is recorded
    (HF's tokenizer without a post-processor records none). `pack` gives what `process_owned`
    and `PackedEncoding.pack` give, without the Encodings they build on the way. (A tuple: one
    is made per text, and a dataclass costs 1 us more to make.)"""

    before_ids: tuple[int, ...] = ()
    before_tokens: tuple[str, ...] = ()
    before_type_ids: tuple[int, ...] = ()
    type_id: int = 0
    after_ids: tuple[int, ...] = ()
    after_tokens: tuple[str, ...] = ()
    after_type_ids: tuple[int, ...] = ()
    ranged: bool = True

    def pack(self, ids: list[int], tokens: list[str], offsets: list[tuple[int, int]],
             word_ids: list[int | None]) -> PackedEncoding:
        """The packed encoding of one sequence's columns (special mask 0, attention 1) laid out."""
        n, before, after = len(ids), len(self.before_ids), len(self.after_ids)
        return PackedEncoding.of(
            self.before_ids + tuple(ids) + self.after_ids,
            self.before_type_ids + (self.type_id,) * n + self.after_type_ids,
            self.before_tokens + tuple(tokens) + self.after_tokens,
            ((0, 0),) * before + tuple(offsets) + ((0, 0),) * after,
            (1,) * before + (0,) * n + (1,) * after,
            (1,) * (before + n + after),
            (None,) * before + tuple(word_ids) + (None,) * after,
            (),
            {0: (before, before + n)} if self.ranged else {})


# The sequence as it is; and without a post-processor, no range recorded (HF's default_process).
ALONE = SingleLayout()
UNPROCESSED = SingleLayout(ranged=False)


def surrounded(before: SpecialPair, after: SpecialPair, add_special_tokens: bool) -> SingleLayout:
    """The layout of a sequence between two specials (all type ids 0), or alone without them."""
    if not add_special_tokens:
        return ALONE
    return SingleLayout((before[1],), (before[0],), (0,), 0, (after[1],), (after[0],), (0,))


# ----- offsets trimming (ByteLevel, Roberta) -----------------------------------------------------


def _trimmed_chars() -> str:
    """The chars trimmed from token offsets: the byte-level space Ġ and Unicode White_Space."""
    # Every White_Space char is at or below U+3000 (IDEOGRAPHIC SPACE).
    spaces = (chr(code) for code in range(0x3001) if is_whitespace(chr(code)))
    return _BYTE_LEVEL_SPACE + "".join(spaces)


_TRIMMED = _trimmed_chars()


def process_offsets(encoding: Encoding, add_prefix_space: bool) -> None:
    """Shrink each token's offsets past its leading and trailing spaces, in place.

    The one leading space of the first token is kept when `add_prefix_space` (it was
    added, not in the text); a token starting at offset 0 counts as first.
    """
    offsets = encoding.offsets
    # Token by token as far as both columns go (a special whose ids and tokens differ in number
    # makes them differ in length; HF zips them).
    for index, (token, (start, end)) in enumerate(zip(encoding.tokens, offsets)):
        leading = len(token) - len(token.lstrip(_TRIMMED))
        trailing = len(token) - len(token.rstrip(_TRIMMED))
        if not leading and not trailing:
            continue
        if leading:
            if add_prefix_space and leading == 1 and (index == 0 or start == 0):
                leading = 0
            start = min(start + leading, end)
        if trailing and end >= trailing:
            end = max(end - trailing, start)
        offsets[index] = (start, end)


def _trim_all(encodings: list[Encoding], add_prefix_space: bool) -> None:
    """Trim the offsets of every encoding and of their overflowing parts."""
    for encoding in encodings:
        process_offsets(encoding, add_prefix_space)
        for overflow in encoding.overflowing:
            process_offsets(overflow, add_prefix_space)


# ----- BertProcessing and RobertaProcessing ------------------------------------------------------


def _surround(encoding: Encoding, before: SpecialPair | None, after: SpecialPair,
              type_ids: list[int], sequence_id: int) -> Encoding:
    """A new encoding: optional `before` special, the tokens, then `after` special (no overflow)."""
    lead = 0 if before is None else 1
    n = len(encoding.ids)
    head_ids = [] if before is None else [before[1]]
    head_tokens = [] if before is None else [before[0]]
    return Encoding(
        head_ids + encoding.ids + [after[1]],
        type_ids,
        head_tokens + encoding.tokens + [after[0]],
        [(0, 0)] * lead + encoding.offsets + [(0, 0)],
        [1] * lead + [0] * n + [1],
        [1] * (n + lead + 1),
        [None] * lead + encoding.word_ids + [None],
        [],
        {sequence_id: (lead, lead + n)},
    )


def _read_special_pair(data: dict, name: str) -> SpecialPair:
    """A `[token, id]` pair such as `"sep": ["[SEP]", 102]`."""
    value = field_value(data, name)
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise FormatError(f"expected [token, id], got {value!r}", field=name)
    return (as_str(value[0], name), as_uint(value[1], name))


@dataclass
class BertProcessing(PostProcessor):
    """`[CLS] A [SEP]`, pair `[CLS] A [SEP] B [SEP]` with type id 1 on `B [SEP]`."""

    sep: SpecialPair = ("[SEP]", 102)
    cls: SpecialPair = ("[CLS]", 101)

    def added_tokens(self, is_pair: bool) -> int:
        """2 for a sequence, 3 for a pair."""
        return 3 if is_pair else 2

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int]:
        """CLS, the ids, SEP."""
        return [self.cls[1], *ids, self.sep[1]] if add_special_tokens else ids

    def single_layout(self, add_special_tokens: bool) -> SingleLayout:
        """CLS, the sequence, SEP."""
        return surrounded(self.cls, self.sep, add_special_tokens)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Add CLS/SEP around the first sequence and SEP after the pair."""
        if not add_special_tokens:
            return encodings
        result = []
        for index, encoding in enumerate(encodings):
            result.append(self._wrap(encoding, index))
            result[-1].overflowing = [self._wrap(o, index) for o in encoding.overflowing]
        return result

    def _wrap(self, encoding: Encoding, index: int) -> Encoding:
        """The specials of sequence `index` around one encoding."""
        if index == 0:
            return _surround(encoding, self.cls, self.sep, [0] + encoding.type_ids + [0], 0)
        return _surround(encoding, None, self.sep, encoding.type_ids + [1], 1)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "BertProcessing", "sep": list(self.sep), "cls": list(self.cls)}

    @classmethod
    def from_dict(cls, data: Any) -> "BertProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        return cls(sep=_read_special_pair(data, "sep"), cls=_read_special_pair(data, "cls"))


@dataclass
class RobertaProcessing(PostProcessor):
    """`<s> A </s>`, pair `<s> A </s> </s> B </s>`; all type ids 0; optional offset trimming."""

    sep: SpecialPair = ("</s>", 2)
    cls: SpecialPair = ("<s>", 0)
    trim_offsets: bool = True
    add_prefix_space: bool = True

    def added_tokens(self, is_pair: bool) -> int:
        """2 for a sequence, 4 for a pair."""
        return 4 if is_pair else 2

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int]:
        """CLS, the ids, SEP (trimming moves offsets only)."""
        return [self.cls[1], *ids, self.sep[1]] if add_special_tokens else ids

    def single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """CLS, the sequence, SEP; None when offsets are trimmed."""
        return None if self.trim_offsets else surrounded(self.cls, self.sep, add_special_tokens)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Trim offsets, zero the type ids (even without specials), then add the specials."""
        if self.trim_offsets:
            _trim_all(encodings, self.add_prefix_space)
        for encoding in encodings:
            encoding.type_ids = [0] * len(encoding.ids)
        if not add_special_tokens:
            return encodings
        result = []
        for index, encoding in enumerate(encodings):
            result.append(self._wrap(encoding, index))
            result[-1].overflowing = [self._wrap(o, index) for o in encoding.overflowing]
        return result

    def _wrap(self, encoding: Encoding, index: int) -> Encoding:
        """The specials of sequence `index` around one encoding."""
        zeros = [0] * (len(encoding.ids) + 2)
        if index == 0:
            return _surround(encoding, self.cls, self.sep, zeros, 0)
        return _surround(encoding, self.sep, self.sep, zeros, 1)

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "RobertaProcessing", "sep": list(self.sep), "cls": list(self.cls),
                "trim_offsets": self.trim_offsets, "add_prefix_space": self.add_prefix_space}

    @classmethod
    def from_dict(cls, data: Any) -> "RobertaProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        return cls(sep=_read_special_pair(data, "sep"), cls=_read_special_pair(data, "cls"),
                   trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   add_prefix_space=as_bool(field_value(data, "add_prefix_space"),
                                            "add_prefix_space"))


# ----- ByteLevel ---------------------------------------------------------------------------------


@dataclass
class ByteLevel(PostProcessor):
    """Offset trimming only (the byte-level pre-tokenizer's fields are kept for the JSON form)."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True

    def added_tokens(self, is_pair: bool) -> int:
        """Never adds tokens."""
        return 0

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int]:
        """The ids as they are (trimming moves offsets only)."""
        return ids

    def single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """The sequence as it is; None when offsets are trimmed."""
        return None if self.trim_offsets else ALONE

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Trim offsets when asked and mark the sequences."""
        if self.trim_offsets:
            _trim_all(encodings, self.add_prefix_space)
        for index, encoding in enumerate(encodings):
            encoding.set_sequence_id(index)
        return encodings

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}

    @classmethod
    def from_dict(cls, data: Any) -> "ByteLevel":
        """Read the tokenizer.json form (`type` must be "ByteLevel"; `use_regex` defaults true)."""
        data = require_object(data, "a post-processor")
        _expect_type(data, "ByteLevel")
        return cls(add_prefix_space=as_bool(field_value(data, "add_prefix_space"),
                                            "add_prefix_space"),
                   trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   use_regex=as_bool(field_value(data, "use_regex", True), "use_regex"))


def _expect_type(data: dict, name: str) -> None:
    """Check the `type` tag of a component whose tag HF validates."""
    kind = field_value(data, "type")
    if kind != name:
        raise FormatError(f"expected type {name!r}, got {kind!r}", field="type")


# ----- TemplateProcessing ------------------------------------------------------------------------


@dataclass(frozen=True)
class SequencePiece:
    """A template item standing for input sequence "A" or "B", with the type id to give it."""

    id: str
    type_id: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"Sequence": {"id": self.id, "type_id": self.type_id}}


@dataclass(frozen=True)
class SpecialPiece:
    """A template item standing for the special token named `id`, with its type id."""

    id: str
    type_id: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"SpecialToken": {"id": self.id, "type_id": self.type_id}}


Piece = Union[SequencePiece, SpecialPiece]


@dataclass
class SpecialToken:
    """A named special token of a template; one name may stand for several ids/tokens."""

    id: str
    ids: list[int]
    tokens: list[str]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"id": self.id, "ids": list(self.ids), "tokens": list(self.tokens)}


def _parse_u32(text: str) -> int | None:
    """Rust's `u32::from_str`: an optional '+' then ASCII digits; None when invalid."""
    digits = text[1:] if text.startswith("+") else text
    if not digits or any(c not in "0123456789" for c in digits):
        return None
    value = int(digits)
    return value if value < 2**32 else None


def _parse_piece_id(text: str) -> Piece | None:
    """`$`, `$A`, `$b`, `$N` (sequence A with type id N) or a special token name."""
    if not text.startswith("$"):
        return SpecialPiece(text)
    rest = text[1:]
    if rest in ("", "A", "a"):
        return SequencePiece("A")
    if rest in ("B", "b"):
        return SequencePiece("B")
    type_id = _parse_u32(rest)
    return None if type_id is None else SequencePiece("A", type_id)


def parse_piece(text: str) -> Piece:
    """One item of HF's template string syntax, e.g. `$A`, `$B:1`, `$1`, `[SEP]:1`."""
    parts = text.split(":")
    piece = _parse_piece_id(parts[0]) if len(parts) <= 2 else None
    if piece is not None and len(parts) == 2:
        type_id = _parse_u32(parts[1])
        piece = None if type_id is None else type(piece)(piece.id, type_id)
    if piece is None:
        raise ValueError(f'Cannot build Piece from string "{text}"')
    return piece


def parse_template(template: str | Iterable[str | Piece]) -> list[Piece]:
    """A template given as "[CLS] $A [SEP]" (split on single spaces) or as a list of items."""
    items = template.split(" ") if isinstance(template, str) else template
    return [item if isinstance(item, (SequencePiece, SpecialPiece)) else parse_piece(item)
            for item in items]


def _special_token_from_python(item: Any) -> SpecialToken:
    """(token, id), (id, token), a {"id", "ids", "tokens"} dict, or a SpecialToken."""
    if isinstance(item, SpecialToken):
        return item
    if isinstance(item, tuple) and len(item) == 2:
        token, token_id = item if isinstance(item[0], str) else (item[1], item[0])
        if isinstance(token, str) and isinstance(token_id, int) and not isinstance(token_id, bool):
            return SpecialToken(token, [token_id], [token])
    if isinstance(item, dict):
        for key in ("id", "ids", "tokens"):
            if key not in item:
                raise ValueError(f"`{key}` must be specified")
        if len(item["ids"]) != len(item["tokens"]):
            raise ValueError("SpecialToken: ids and tokens must be of the same length")
        return SpecialToken(item["id"], list(item["ids"]), list(item["tokens"]))
    raise TypeError("Expected Union[Tuple[str, int], Tuple[int, str], dict]")


class TemplateProcessing(PostProcessor):
    """Specials and type ids placed by a template, e.g. single "[CLS] $A [SEP]",
    pair "[CLS] $A [SEP] $B:1 [SEP]:1".

    Built like HF's Python class (strings or lists, validated); `from_dict` reads the
    JSON form without validation, as HF's deserializer does.
    """

    def __init__(self, single: str | Iterable[str | Piece] | None = None,
                 pair: str | Iterable[str | Piece] | None = None,
                 special_tokens: Iterable[Any] | dict[str, SpecialToken] | None = None,
                 *, validate: bool = True):
        self.single: list[Piece] = parse_template("$0" if single is None else single)
        self.pair: list[Piece] = parse_template("$A:0 $B:1" if pair is None else pair)
        if isinstance(special_tokens, dict):
            self.special_tokens: dict[str, SpecialToken] = dict(special_tokens)
        else:
            self.special_tokens = {}
            for item in special_tokens or ():
                token = _special_token_from_python(item)
                self.special_tokens[token.id] = token
        # The single layouts made so far, while `single` and `special_tokens` are these objects.
        self._layouts: tuple[list[Piece], dict[str, SpecialToken], dict[bool, SingleLayout | None]] | None = None
        if validate:
            self._validate()

    def __repr__(self) -> str:
        return (f"TemplateProcessing(single={self.single!r}, pair={self.pair!r}, "
                f"special_tokens={self.special_tokens!r})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TemplateProcessing) and self.to_dict() == other.to_dict()

    def _validate(self) -> None:
        """HF's builder checks: the pair uses A and B; every special token is defined."""
        used = {piece.id for piece in self.pair if isinstance(piece, SequencePiece)}
        if used != {"A", "B"}:
            raise ValueError("Template for `pair` must use both sequences")
        missing = sorted({piece.id for piece in self.single + self.pair
                          if isinstance(piece, SpecialPiece)
                          and piece.id not in self.special_tokens})
        if missing:
            raise ValueError(f"Missing SpecialToken(s) with id(s) `{', '.join(missing)}`")

    def added_tokens(self, is_pair: bool) -> int:
        """The number of special ids the single or pair template adds (unknown names count 0)."""
        template = self.pair if is_pair else self.single
        return sum(len(self.special_tokens[piece.id].ids) for piece in template
                   if isinstance(piece, SpecialPiece) and piece.id in self.special_tokens)

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int]:
        """The single template's items in order: the ids for $A, each special's ids."""
        laid_out: list[int] = []
        for piece in self.single:
            if isinstance(piece, SequencePiece):
                if piece.id != "A":
                    raise TokenizationError("the template for a single sequence uses sequence $B")
                laid_out += ids
            elif add_special_tokens:
                laid_out += self._special_token(piece).ids
        return laid_out

    def single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """The specials before and after $A in the single template; None for a template that
        does not hold $A once (`process` decides, or raises). Kept while the template and the
        specials are the same objects: `encode` asks for it per text."""
        kept = self._layouts
        if kept is None or kept[0] is not self.single or kept[1] is not self.special_tokens:
            kept = self._layouts = (self.single, self.special_tokens, {})
        if add_special_tokens not in kept[2]:
            kept[2][add_special_tokens] = self._single_layout(add_special_tokens)
        return kept[2][add_special_tokens]

    def _single_layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """`single_layout`, made."""
        places = [index for index, piece in enumerate(self.single) if isinstance(piece, SequencePiece)]
        if len(places) != 1 or self.single[places[0]].id != "A":
            return None
        if any(isinstance(piece, SpecialPiece) and piece.id not in self.special_tokens for piece in self.single):
            return None  # `process` raises, after the model (whose errors come first, as in HF)
        place = places[0]
        type_id = self.single[place].type_id
        if not add_special_tokens:
            return ALONE if type_id == 0 else SingleLayout(type_id=type_id)
        return SingleLayout(*self._specials(self.single[:place]), type_id, *self._specials(self.single[place + 1:]))

    def _specials(self, pieces: list[Piece]) -> tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]:
        """The ids, strings and type ids of these special items."""
        ids: tuple[int, ...] = ()
        tokens: tuple[str, ...] = ()
        type_ids: tuple[int, ...] = ()
        for piece in pieces:
            token = self._special_token(piece)
            ids += tuple(token.ids)
            tokens += tuple(token.tokens)
            type_ids += (piece.type_id,) * len(token.ids)
        return ids, tokens, type_ids

    def process_owned(self, encoding: Encoding, pair: Encoding | None,
                      add_special_tokens: bool) -> Encoding:
        """`PostProcessor.process_owned`; a single sequence without overflowing parts (nearly every
        call) has its columns laid out in template order at once, not merged from an encoding per
        item (a third of a T5 line's time went to those copies and merges)."""
        if pair is not None or encoding.overflowing:
            return super().process_owned(encoding, pair, add_special_tokens)
        ids: list[int] = []
        type_ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        special_mask: list[int] = []
        attention: list[int] = []
        words: list[int | None] = []
        ranges: dict[int, tuple[int, int]] = {}
        for piece in self.single:
            if isinstance(piece, SequencePiece):
                if piece.id != "A":
                    raise TokenizationError("the template for a single sequence uses sequence $B")
                n = len(encoding.ids)
                ranges[0] = (len(ids), len(ids) + n)
                ids += encoding.ids
                tokens += encoding.tokens
                offsets += encoding.offsets
                special_mask += encoding.special_tokens_mask
                attention += encoding.attention_mask
                words += encoding.word_ids
            elif add_special_tokens:
                token = self._special_token(piece)
                n = len(token.ids)
                ids += token.ids
                tokens += token.tokens
                offsets += [(0, 0)] * n
                special_mask += [1] * n
                attention += [1] * n
                words += [None] * n
            else:
                continue
            type_ids += [piece.type_id] * n
        return Encoding(ids, type_ids, tokens, offsets, special_mask, attention, words, [], ranges)

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """One encoding per template item, in template order (merged by the caller)."""
        template = self.pair if len(encodings) == 2 else self.single
        parts = []
        for piece in template:
            if isinstance(piece, SequencePiece):
                index = 0 if piece.id == "A" else 1
                if index >= len(encodings):
                    raise TokenizationError("the template for a single sequence uses sequence $B")
                encoding = encodings[index]
                encoding.type_ids = [piece.type_id] * len(encoding.ids)
                encoding.set_sequence_id(index)
                parts.append(encoding.copy())
            elif add_special_tokens:
                parts.append(self._special_encoding(piece))
        return parts

    def _special_token(self, piece: SpecialPiece) -> SpecialToken:
        """The special token a template item names."""
        token = self.special_tokens.get(piece.id)
        if token is None:
            raise FormatError(f"Missing SpecialToken(s) with id(s) `{piece.id}`",
                              field="special_tokens")
        return token

    def _special_encoding(self, piece: SpecialPiece) -> Encoding:
        """The encoding of one special item: offsets (0, 0), no word, special mask 1."""
        token = self._special_token(piece)
        n = len(token.ids)
        return Encoding(list(token.ids), [piece.type_id] * n, list(token.tokens), [(0, 0)] * n,
                        [1] * n, [1] * n, [None] * n, [], {})

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form; special tokens sorted by name as HF writes them."""
        return {"type": "TemplateProcessing",
                "single": [piece.to_dict() for piece in self.single],
                "pair": [piece.to_dict() for piece in self.pair],
                "special_tokens": {name: self.special_tokens[name].to_dict()
                                   for name in sorted(self.special_tokens)}}

    @classmethod
    def from_dict(cls, data: Any) -> "TemplateProcessing":
        """Read the tokenizer.json form (`type` is not checked, as in HF)."""
        data = require_object(data, "a post-processor")
        single = _read_template(field_value(data, "single"), "single")
        pair = _read_template(field_value(data, "pair"), "pair")
        special = _read_special_tokens(field_value(data, "special_tokens"))
        return cls(single, pair, special, validate=False)


def _read_template(value: Any, name: str) -> list[Piece]:
    """A list of {"Sequence": {...}} / {"SpecialToken": {...}} items."""
    if not isinstance(value, list):
        raise FormatError(f"expected a list of template items, got {value!r}", field=name)
    return [_read_piece(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _read_piece(item: Any, name: str) -> Piece:
    """One template item of the JSON form."""
    if not isinstance(item, dict) or len(item) != 1:
        raise FormatError(f'expected {{"Sequence": ...}} or {{"SpecialToken": ...}}, got {item!r}',
                          field=name)
    (kind, body), = item.items()
    if kind not in ("Sequence", "SpecialToken") or not isinstance(body, dict):
        raise FormatError(f"unknown template item {kind!r}", field=name)
    try:
        type_id = as_uint(field_value(body, "type_id"), "type_id")
        piece_id = field_value(body, "id")
    except FormatError as error:
        raise error.at(field=f"{name}.{kind}") from None
    if kind == "Sequence":
        if piece_id not in ("A", "B"):
            raise FormatError(f"unknown variant {piece_id!r}, expected `A` or `B`",
                              field=f"{name}.Sequence.id")
        return SequencePiece(piece_id, type_id)
    return SpecialPiece(as_str(piece_id, f"{name}.SpecialToken.id"), type_id)


def _read_special_tokens(value: Any) -> dict[str, SpecialToken]:
    """{name: {"id", "ids", "tokens"}}; the map key is the name templates use."""
    if not isinstance(value, dict):
        raise FormatError(f"expected an object, got {value!r}", field="special_tokens")
    tokens = {}
    for name, body in value.items():
        where = f"special_tokens.{name}"
        if not isinstance(body, dict):
            raise FormatError(f"expected an object, got {body!r}", field=where)
        try:
            token_id = as_str(field_value(body, "id"), "id")
            ids = field_value(body, "ids")
            strings = field_value(body, "tokens")
            if not isinstance(ids, list):
                raise FormatError(f"expected a list, got {ids!r}", field="ids")
            if not isinstance(strings, list):
                raise FormatError(f"expected a list, got {strings!r}", field="tokens")
            ids = [as_uint(i, "ids") for i in ids]
            strings = [as_str(s, "tokens") for s in strings]
        except FormatError as error:
            raise error.at(field=where) from None
        tokens[name] = SpecialToken(token_id, ids, strings)
    return tokens


# ----- Sequence and the entry points -------------------------------------------------------------


@dataclass
class Sequence(PostProcessor):
    """Post-processors applied in order; the added counts add up."""

    processors: list[PostProcessor]

    def added_tokens(self, is_pair: bool) -> int:
        """The sum of the processors' counts."""
        return sum(p.added_tokens(is_pair) for p in self.processors)

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int] | None:
        """Each processor's `single_ids` on the previous one's (None if any is None, or if one but
        the last hands several encodings on: the next then lays its specials around each)."""
        for index, processor in enumerate(self.processors):
            if index < len(self.processors) - 1 and not _hands_on_one(processor, add_special_tokens):
                return None
            found = processor.single_ids(ids, add_special_tokens)
            if found is None:
                return None
            ids = found
        return ids

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Each processor's per-sequence step on the previous one's output."""
        for processor in self.processors:
            encodings = processor.process_encodings(encodings, add_special_tokens)
        return encodings

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": "Sequence", "processors": [p.to_dict() for p in self.processors]}

    @classmethod
    def from_dict(cls, data: Any) -> "Sequence":
        """Read the tokenizer.json form (`type` must be "Sequence")."""
        data = require_object(data, "a post-processor")
        _expect_type(data, "Sequence")
        return cls(component_list(data, "processors", from_dict))


def _hands_on_one(processor: PostProcessor, add_special_tokens: bool) -> bool:
    """Whether the processor turns one sequence's encoding into one: a template hands each of its
    specials on as an encoding of its own (HF merges them only after the last processor)."""
    if isinstance(processor, TemplateProcessing):
        return not add_special_tokens or all(isinstance(piece, SequencePiece) for piece in processor.single)
    if isinstance(processor, Sequence):
        return all(_hands_on_one(inner, add_special_tokens) for inner in processor.processors)
    return True


# HF reads post-processors untagged: the first variant, in this order, whose fields fit wins.
_VARIANTS: tuple[tuple[str, Any], ...] = (
    ("RobertaProcessing", RobertaProcessing),
    ("BertProcessing", BertProcessing),
    ("ByteLevel", ByteLevel),
    ("TemplateProcessing", TemplateProcessing),
    ("Sequence", Sequence),
)


def bos_eos_template(bos: tuple[str, int] | None, eos: tuple[str, int] | None) -> dict | None:
    """The tokenizer.json TemplateProcessing that puts a bos token (content, id) before each
    sequence and an eos token after it (`<s> $A </s> <s> $B </s>`, B with type id 1), or None
    when there is neither; what sentencepiece's add_bos/add_eos and GGUF's flags ask for."""
    if bos is None and eos is None:
        return None

    def template(type_id: int, sequence: str) -> list[dict]:
        items = [{"Sequence": {"id": sequence, "type_id": type_id}}]
        if bos is not None:
            items.insert(0, {"SpecialToken": {"id": bos[0], "type_id": type_id}})
        if eos is not None:
            items.append({"SpecialToken": {"id": eos[0], "type_id": type_id}})
        return items

    used = [token for token in (bos, eos) if token is not None]
    return {"type": "TemplateProcessing", "single": template(0, "A"), "pair": template(0, "A") + template(1, "B"),
            "special_tokens": {content: {"id": content, "ids": [token_id], "tokens": [content]}
                               for content, token_id in used}}


def from_dict(data: Any) -> PostProcessor:
    """Read any post-processor from its tokenizer.json form, trying variants in HF's order."""
    data = require_object(data, "a post-processor")
    errors = {}
    for name, variant in _VARIANTS:
        try:
            return variant.from_dict(data)
        except FormatError as error:
            errors[name] = error
    kind = data.get("type")
    if isinstance(kind, str) and kind in errors:
        raise errors[kind]
    if kind is not None:
        raise FormatError(f"unknown post-processor type {kind!r} (expected one of "
                          f"{', '.join(name for name, _ in _VARIANTS)})", field="type")
    raise FormatError("the fields match no post-processor (and there is no `type`)")


def default_process(encoding: Encoding, pair: Encoding | None = None,
                    add_special_tokens: bool = True) -> Encoding:
    """What a tokenizer without post-processor does: a single sequence is kept as is,
    a pair is concatenated (type ids stay as the pipeline set them)."""
    if pair is None:
        return encoding
    merged = Encoding()
    for index, current in enumerate((encoding, pair)):
        current.set_sequence_id(index)
        merged.merge_with(current, False)
    return merged


def post_process(encoding: Encoding, pair: Encoding | None = None,
                 add_special_tokens: bool = True, *, processor: PostProcessor | None = None,
                 truncation: TruncationParams | None = None,
                 padding: PaddingParams | None = None) -> Encoding:
    """The tokenizer's step after the model: truncate (keeping room for the specials),
    post-process (or default_process), then pad this one encoding. Inputs may be modified."""
    added = processor.added_tokens(pair is not None) if processor is not None else 0
    params = params_for_post_processing(truncation, added, add_special_tokens)
    if params is not None:
        encoding, pair = truncate_encodings(encoding, pair, params)
    if processor is not None:
        result = processor.process_owned(encoding, pair, add_special_tokens)
    else:
        result = default_process(encoding, pair, add_special_tokens)
    if padding is not None:
        pad_encodings([result], padding)
    return result
