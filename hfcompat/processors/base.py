"""What the post-processors share: the PostProcessor base (HF's `PostProcessor::process`), the single-sequence
layout a tokenizer packs columns with, offset trimming (ByteLevel, Roberta) and the `type` tag check."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..encoding import Encoding, PackedEncoding
from ..errors import FormatError
from ..pipeline.bytelevel import BYTE_TO_CHAR
from ..pipeline.fields import field_value
from ..pipeline.normalized import is_whitespace


SpecialPair = tuple[str, int]
BYTE_LEVEL_SPACE = BYTE_TO_CHAR[ord(" ")]


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

    def layout(self, add_special_tokens: bool) -> "SingleLayout | None":
        """Where `process` puts a single sequence without overflowing parts: the one statement
        of a processor's layout, from which `single_layout` and `single_ids` follow; None where
        only `process` can tell."""
        return None

    def single_layout(self, add_special_tokens: bool) -> "SingleLayout | None":
        """The `layout` by which `Tokenizer.encode` lays a text's columns out at once; None where
        `process` must run (no layout, or offsets trimmed)."""
        layout = self.layout(add_special_tokens)
        return None if layout is None or layout.trims_offsets else layout

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int] | None:
        """The ids `process` gives for a single sequence of these ids (the specials laid out
        around them), for `Tokenizer.encode_ids`; None where only `process` can tell."""
        layout = self.layout(add_special_tokens)
        return None if layout is None else [*layout.before_ids, *ids, *layout.after_ids]

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
    it (ids, strings, type ids), the sequence's type id, whether its token range is recorded
    (HF's tokenizer without a post-processor records none), and whether `process` trims the
    sequence's offsets (ByteLevel's trimming: then only the ids follow from the layout). `pack` gives what `process_owned`
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
    trims_offsets: bool = False

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
TRIMMED_ALONE = SingleLayout(trims_offsets=True)
UNPROCESSED = SingleLayout(ranged=False)


def surrounded(before: SpecialPair, after: SpecialPair, add_special_tokens: bool,
               trims_offsets: bool = False) -> SingleLayout:
    """The layout of a sequence between two specials (all type ids 0), or alone without them."""
    if not add_special_tokens:
        return TRIMMED_ALONE if trims_offsets else ALONE
    return SingleLayout((before[1],), (before[0],), (0,), 0, (after[1],), (after[0],), (0,),
                        trims_offsets=trims_offsets)


# ----- offsets trimming (ByteLevel, Roberta) -----------------------------------------------------


def trimmed_chars() -> str:
    """The chars trimmed from token offsets: the byte-level space Ġ and Unicode White_Space."""
    # Every White_Space char is at or below U+3000 (IDEOGRAPHIC SPACE).
    spaces = (chr(code) for code in range(0x3001) if is_whitespace(chr(code)))
    return BYTE_LEVEL_SPACE + "".join(spaces)


TRIMMED = trimmed_chars()


def process_offsets(encoding: Encoding, add_prefix_space: bool) -> None:
    """Shrink each token's offsets past its leading and trailing spaces, in place.

    The one leading space of the first token is kept when `add_prefix_space` (it was
    added, not in the text); a token starting at offset 0 counts as first.
    """
    offsets = encoding.offsets
    # Token by token as far as both columns go (a special whose ids and tokens differ in number
    # makes them differ in length; HF zips them).
    for index, (token, (start, end)) in enumerate(zip(encoding.tokens, offsets)):
        leading = len(token) - len(token.lstrip(TRIMMED))
        trailing = len(token) - len(token.rstrip(TRIMMED))
        if not leading and not trailing:
            continue
        if leading:
            if add_prefix_space and leading == 1 and (index == 0 or start == 0):
                leading = 0
            start = min(start + leading, end)
        if trailing and end >= trailing:
            end = max(end - trailing, start)
        offsets[index] = (start, end)


def trim_all(encodings: list[Encoding], add_prefix_space: bool) -> None:
    """Trim the offsets of every encoding and of their overflowing parts."""
    for encoding in encodings:
        process_offsets(encoding, add_prefix_space)
        for overflow in encoding.overflowing:
            process_offsets(overflow, add_prefix_space)



def expect_type(data: dict, name: str) -> None:
    """Check the `type` tag of a component whose tag HF validates."""
    kind = field_value(data, "type")
    if kind != name:
        raise FormatError(f"expected type {name!r}, got {kind!r}", field="type")
