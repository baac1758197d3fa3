"""Padding of a batch of encodings, as HF's `pad_encodings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..encoding import Encoding
from ..errors import FormatError
from .fields import USIZE_MAX, as_choice, as_str, as_uint, field_value, require_object

BATCH_LONGEST = "BatchLongest"
DIRECTIONS = ("Left", "Right")
_PY_DIRECTIONS = {"left": "Left", "right": "Right"}


@dataclass(frozen=True)
class Fixed:
    """Pad every encoding to `length` tokens (HF's `PaddingStrategy::Fixed`)."""

    length: int


Strategy = Union[str, Fixed]


@dataclass
class PaddingParams:
    """The tokenizer.json "padding" section; `strategy` is BATCH_LONGEST or Fixed(n)."""

    strategy: Strategy = BATCH_LONGEST
    direction: str = "Right"
    pad_to_multiple_of: int | None = None
    pad_id: int = 0
    pad_type_id: int = 0
    pad_token: str = "[PAD]"

    def __post_init__(self) -> None:
        self.direction = _PY_DIRECTIONS.get(self.direction, self.direction)
        if self.direction not in DIRECTIONS:
            raise ValueError(f"Unknown `direction`: `{self.direction}`. "
                             "Use one of `left` or `right`")
        if self.strategy != BATCH_LONGEST and not isinstance(self.strategy, Fixed):
            raise ValueError(f"padding strategy must be {BATCH_LONGEST!r} or Fixed(n), "
                             f"got {self.strategy!r}")

    @property
    def length(self) -> int | None:
        """The fixed length, or None for the longest of the batch (HF's Python `length`)."""
        return self.strategy.length if isinstance(self.strategy, Fixed) else None

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form, keys in HF's order."""
        strategy = ({"Fixed": self.strategy.length} if isinstance(self.strategy, Fixed)
                    else BATCH_LONGEST)
        return {"strategy": strategy, "direction": self.direction,
                "pad_to_multiple_of": self.pad_to_multiple_of, "pad_id": self.pad_id,
                "pad_type_id": self.pad_type_id, "pad_token": self.pad_token}

    def to_python(self) -> dict[str, Any]:
        """The dict HF's Python `Tokenizer.padding` returns."""
        return {"length": self.length, "pad_to_multiple_of": self.pad_to_multiple_of,
                "pad_id": self.pad_id, "pad_token": self.pad_token,
                "pad_type_id": self.pad_type_id, "direction": self.direction.lower()}

    @classmethod
    def from_dict(cls, data: Any) -> "PaddingParams":
        """Read the tokenizer.json form (only `pad_to_multiple_of` may be missing)."""
        data = require_object(data, "a padding")
        multiple = field_value(data, "pad_to_multiple_of", None)
        return cls(
            strategy=_read_strategy(field_value(data, "strategy")),
            direction=as_choice(field_value(data, "direction"), "direction", DIRECTIONS),
            pad_to_multiple_of=None if multiple is None else as_uint(multiple, "pad_to_multiple_of",
                                                                     USIZE_MAX),
            pad_id=as_uint(field_value(data, "pad_id"), "pad_id"),
            pad_type_id=as_uint(field_value(data, "pad_type_id"), "pad_type_id"),
            pad_token=as_str(field_value(data, "pad_token"), "pad_token"),
        )


def _read_strategy(value: Any) -> Strategy:
    """"BatchLongest" or {"Fixed": n}."""
    if value == BATCH_LONGEST:
        return BATCH_LONGEST
    if isinstance(value, dict) and list(value) == ["Fixed"]:
        return Fixed(as_uint(value["Fixed"], "strategy.Fixed", USIZE_MAX))
    raise FormatError(f'expected "BatchLongest" or {{"Fixed": n}}, got {value!r}', field="strategy")


def pad_encodings(encodings: list[Encoding], params: PaddingParams) -> None:
    """Pad every encoding in place to the batch's longest (or the fixed) length, rounded up."""
    if not encodings:
        return
    if isinstance(params.strategy, Fixed):
        length = params.strategy.length
    else:
        length = max(len(encoding.ids) for encoding in encodings)
    multiple = params.pad_to_multiple_of
    if multiple and length % multiple:
        length += multiple - length % multiple
    direction = params.direction.lower()
    for encoding in encodings:
        encoding.pad(length, params.pad_id, params.pad_type_id, params.pad_token, direction)
