"""Truncation of an encoding (and its pair) to a maximum length, as HF's `truncate_encodings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..errors import TokenizationError
from .fields import USIZE_MAX, as_choice, as_uint, field_value, require_object

STRATEGIES = ("LongestFirst", "OnlyFirst", "OnlySecond")
DIRECTIONS = ("Left", "Right")
# HF's Python spellings (enable_truncation, Tokenizer.truncation) of the JSON variant names.
_PY_STRATEGIES = {"longest_first": "LongestFirst", "only_first": "OnlyFirst",
                  "only_second": "OnlySecond"}
_PY_DIRECTIONS = {"left": "Left", "right": "Right"}

SECOND_SEQUENCE_NOT_PROVIDED = "Truncation error: Second sequence not provided"
SEQUENCE_TOO_SHORT = ("Truncation error: Sequence to truncate too short to respect the provided "
                      "max_length")


@dataclass
class TruncationParams:
    """The tokenizer.json "truncation" section; Python spellings ("only_first", "left") work too."""

    max_length: int = 512
    stride: int = 0
    strategy: str = "LongestFirst"
    direction: str = "Right"

    def __post_init__(self) -> None:
        self.strategy = _PY_STRATEGIES.get(self.strategy, self.strategy)
        self.direction = _PY_DIRECTIONS.get(self.direction, self.direction)
        if self.strategy not in STRATEGIES:
            raise ValueError(f"Unknown `strategy`: `{self.strategy}`. Use one of `longest_first`, "
                             "`only_first`, or `only_second`")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"Unknown `direction`: `{self.direction}`. "
                             "Use one of `left` or `right`.")

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form, keys in HF's order."""
        return {"direction": self.direction, "max_length": self.max_length,
                "strategy": self.strategy, "stride": self.stride}

    def to_python(self) -> dict[str, Any]:
        """The dict HF's Python `Tokenizer.truncation` returns."""
        return {"max_length": self.max_length, "stride": self.stride,
                "strategy": _snake(self.strategy), "direction": self.direction.lower()}

    @classmethod
    def from_dict(cls, data: Any) -> "TruncationParams":
        """Read the tokenizer.json form (`direction` defaults to Right; the rest is required)."""
        data = require_object(data, "a truncation")
        return cls(
            max_length=as_uint(field_value(data, "max_length"), "max_length", USIZE_MAX),
            stride=as_uint(field_value(data, "stride"), "stride", USIZE_MAX),
            strategy=as_choice(field_value(data, "strategy"), "strategy", STRATEGIES),
            direction=as_choice(field_value(data, "direction", "Right"), "direction", DIRECTIONS),
        )


def _snake(name: str) -> str:
    """LongestFirst -> longest_first."""
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name))


def check_stride(params: TruncationParams, added_tokens: int) -> None:
    """Refuse a stride that leaves no room, as HF's `enable_truncation` does.

    `added_tokens` is the post-processor's count for a single sequence. HF subtracts in
    unsigned arithmetic, so when the specials outnumber max_length nothing is refused.
    """
    if added_tokens > params.max_length:
        return
    effective = params.max_length - added_tokens
    if effective < params.stride:
        raise ValueError(
            f"tokenizer stride set to {params.stride}, which is greater than or equal to its "
            f"effective max length of {effective} (= {params.max_length} original max length - "
            f"{added_tokens} added special tokens), ")


def params_for_post_processing(params: TruncationParams | None, added_tokens: int,
                               add_special_tokens: bool) -> TruncationParams | None:
    """The params the tokenizer truncates with before its post-processor, or None for none.

    With special tokens, room is kept for them. HF subtracts in unsigned (wrapping)
    arithmetic, so when they outnumber max_length nothing gets truncated at all.
    """
    if params is None or not add_special_tokens or added_tokens == 0:
        return params
    if added_tokens > params.max_length:
        return None
    return TruncationParams(params.max_length - added_tokens, params.stride,
                            params.strategy, params.direction)


def truncate_encodings(encoding: Encoding, pair: Encoding | None,
                       params: TruncationParams) -> tuple[Encoding, Encoding | None]:
    """Truncate a sequence (and its pair) in place to `params.max_length` tokens in total.

    Raises TokenizationError with HF's message when the strategy cannot be met.
    """
    direction = params.direction
    if params.max_length == 0:
        encoding.truncate(0, params.stride, direction)
        if pair is not None:
            pair.truncate(0, params.stride, direction)
        return encoding, pair

    total = len(encoding.ids) + (len(pair.ids) if pair is not None else 0)
    if total <= params.max_length:
        return encoding, pair
    to_remove = total - params.max_length

    if params.strategy == "LongestFirst":
        if pair is None:
            encoding.truncate(params.max_length, params.stride, direction)
        else:
            first, second = _longest_first_lengths(len(encoding.ids), len(pair.ids),
                                                   params.max_length)
            encoding.truncate(first, params.stride, direction)
            pair.truncate(second, params.stride, direction)
        return encoding, pair

    if params.strategy == "OnlyFirst":
        target = encoding
    elif pair is not None:
        target = pair
    else:
        raise TokenizationError(SECOND_SEQUENCE_NOT_PROVIDED)
    if len(target.ids) <= to_remove:
        raise TokenizationError(SEQUENCE_TOO_SHORT)
    target.truncate(len(target.ids) - to_remove, params.stride, direction)
    return encoding, pair


def _longest_first_lengths(n1: int, n2: int, max_length: int) -> tuple[int, int]:
    """How many tokens each sequence keeps: the shorter one keeps all it can, halves otherwise."""
    swapped = n1 > n2
    short, long = (n2, n1) if swapped else (n1, n2)
    long = short if short > max_length else max(short, max_length - short)
    if short + long > max_length:
        short = max_length // 2
        long = short + max_length % 2
    return (long, short) if swapped else (short, long)


def truncate_as_python_class(encoding: Encoding, pair: Encoding | None, params: TruncationParams,
                             added_tokens: int) -> None:
    """Truncate in place as transformers' Python tokenizers do (PythonBackend.truncate_sequences, 5.x): the
    tokens over max_length, the special tokens counted, are removed at once; never an error."""
    first, second = len(encoding.ids), len(pair.ids) if pair is not None else 0
    to_remove = first + second + added_tokens - params.max_length
    if to_remove <= 0:
        return
    kept_first, kept_second = python_kept_lengths(first, second, pair is not None, to_remove, params.strategy)
    encoding.truncate(kept_first, params.stride, params.direction)
    if pair is not None:
        pair.truncate(kept_second, params.stride, params.direction)


def python_kept_lengths(first: int, second: int, has_pair: bool, to_remove: int, strategy: str) -> tuple[int, int]:
    """How many tokens each sequence keeps under transformers' Python rule: longest_first takes the difference
    from the longer sequence, then halves the rest with the odd token taken from the second; only_first and
    only_second take everything from their sequence (down to nothing; an empty or missing second is left)."""
    if strategy == "OnlyFirst" or (strategy == "LongestFirst" and not has_pair):
        return max(first - to_remove, 0), second
    if strategy == "OnlySecond":
        return first, max(second - to_remove, 0) if second else second
    unequal = min(abs(second - first), to_remove)
    shared = to_remove - unequal
    if first > second:
        from_first, from_second = unequal + shared // 2, shared - shared // 2
    else:
        from_first, from_second = shared // 2, unequal + shared - shared // 2
    return max(first - from_first, 0), max(second - from_second, 0)
