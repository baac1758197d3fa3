"""What transformers' Python tokenizers (PythonBackend's prepare_for_model) do around a class's template: with
special tokens, the template's ids and type ids; without, the sequences as they are with type ids all 0 (a
tokenizer.json template gives the second sequence its own type id there too).

A tokenizer.json holds this only when the template gives every sequence type id 0; otherwise `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..errors import UnsupportedConversion
from . import PostProcessor, SingleLayout


def sequence_type_ids(data: Any) -> set[int]:
    """The type ids a TemplateProcessing dict gives its sequences ($A, $B)."""
    items = [item for key in ("single", "pair") for item in (data.get(key) or [])] if isinstance(data, dict) else []
    return {item["Sequence"].get("type_id", 0) for item in items if isinstance(item, dict) and "Sequence" in item}


@dataclass
class PythonTypeIds(PostProcessor):
    """`inner` when special tokens are added; type ids all 0 when they are not."""

    inner: PostProcessor

    def added_tokens(self, is_pair: bool) -> int:
        """The inner processor's count."""
        return self.inner.added_tokens(is_pair)

    def process_encodings(self, encodings: list[Encoding], add_special_tokens: bool) -> list[Encoding]:
        """The inner processing; without special tokens, every type id 0."""
        processed = self.inner.process_encodings(encodings, add_special_tokens)
        if not add_special_tokens:
            for encoding in processed:
                encoding.type_ids = [0] * len(encoding.ids)
        return processed

    def layout(self, add_special_tokens: bool) -> SingleLayout | None:
        """The inner processor's layout (a single sequence's type ids are 0 without specials either way)."""
        return self.inner.layout(add_special_tokens)

    def single_ids(self, ids: list[int], add_special_tokens: bool) -> list[int] | None:
        """The inner processor's ids (a Sequence composes its own)."""
        return self.inner.single_ids(ids, add_special_tokens)

    def to_dict(self) -> dict[str, Any]:
        """The inner processor's form, when its sequences all have type id 0; else refused."""
        data = self.inner.to_dict()
        if sequence_type_ids(data) - {0}:
            raise UnsupportedConversion("post_processor: a transformers Python tokenizer gives type ids all 0 to a "
                                        "pair encoded without special tokens, which a tokenizer.json template with "
                                        "a second type id does not")
        return data
