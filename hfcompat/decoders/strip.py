"""Strip: a number of a given char removed from each token's start and stop."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import TokenizationError
from ..pipeline.fields import USIZE_MAX, as_char, as_uint, field_value
from .base import Decoder


@dataclass
class Strip(Decoder):
    """Strip: remove up to `start` leading and `stop` trailing `content` chars of each token."""

    content: str = " "
    start: int = 0
    stop: int = 0
    TYPE: ClassVar[str] = "Strip"

    def __post_init__(self) -> None:
        """Check the values HF would refuse."""
        as_char(self.content, "content")
        as_uint(self.start, "start", USIZE_MAX)
        as_uint(self.stop, "stop", USIZE_MAX)

    def _strip(self, token: str) -> str:
        """Strip one token; fail where HF's Rust code panics (the cuts cross or run off the start)."""
        content, size = self.content, len(token)
        start_cut = 0
        while start_cut < min(self.start, size) and token[start_cut] == content:
            start_cut += 1
        stop_cut = size
        for _ in range(self.stop):
            if stop_cut == 0:
                raise TokenizationError(f"Strip decoder: index out of bounds on token {token!r}")
            if token[stop_cut - 1] != content:
                break
            stop_cut -= 1
        if start_cut > stop_cut:
            raise TokenizationError(
                f"Strip decoder: slice index starts at {start_cut} but ends at {stop_cut} on token {token!r}")
        return token[start_cut:stop_cut]

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Strip every token."""
        if self.start == 0 and self.stop == 0:
            return list(tokens)
        return [self._strip(token) for token in tokens]

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form."""
        return {"type": self.TYPE, "content": self.content, "start": self.start, "stop": self.stop}

    @classmethod
    def from_dict(cls, data: dict) -> "Strip":
        """Read the tokenizer.json form (all fields are mandatory)."""
        return cls(content=as_char(field_value(data, "content"), "content"),
                   start=as_uint(field_value(data, "start"), "start", USIZE_MAX),
                   stop=as_uint(field_value(data, "stop"), "stop", USIZE_MAX))
