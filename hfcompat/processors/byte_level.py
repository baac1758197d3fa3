"""ByteLevel as a post-processor: it adds no token and trims the offsets of byte-level tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..pipeline.fields import as_bool, field_value, require_object
from .base import ALONE, TRIMMED_ALONE, PostProcessor, SingleLayout, expect_type, trim_all


@dataclass
class ByteLevel(PostProcessor):
    """Offset trimming only (the byte-level pre-tokenizer's fields are kept for the JSON form)."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True

    def added_tokens(self, is_pair: bool) -> int:
        """Never adds tokens."""
        return 0

    def layout(self, add_special_tokens: bool) -> SingleLayout:
        """The sequence as it is; its offsets trimmed when asked."""
        return TRIMMED_ALONE if self.trim_offsets else ALONE

    def process_encodings(self, encodings: list[Encoding],
                          add_special_tokens: bool) -> list[Encoding]:
        """Trim offsets when asked and mark the sequences."""
        if self.trim_offsets:
            trim_all(encodings, self.add_prefix_space)
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
        expect_type(data, "ByteLevel")
        return cls(add_prefix_space=as_bool(field_value(data, "add_prefix_space"),
                                            "add_prefix_space"),
                   trim_offsets=as_bool(field_value(data, "trim_offsets"), "trim_offsets"),
                   use_regex=as_bool(field_value(data, "use_regex", True), "use_regex"))
