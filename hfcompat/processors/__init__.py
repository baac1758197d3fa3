"""Post-processors: add special tokens, set type ids, trim offsets, as HF's `processors`.

Each has `added_tokens(is_pair)`, `process(encoding, pair, add_special_tokens)`,
`process_encodings(encodings, add_special_tokens)` (the per-sequence step that
`Sequence` chains) and `to_dict()`; `from_dict(d)` reads any of them.
`post_process` is the tokenizer's whole step: truncate, post-process, pad.

One module per family, as in HF's crate: the base class, the single-sequence layout and offset trimming
(base.py); BertProcessing (bert.py); RobertaProcessing (roberta.py); ByteLevel (byte_level.py);
TemplateProcessing and its piece syntax (template.py); processors of hfcompat's own that tokenizer.json cannot
hold (byt5.py, python_type_ids.py). Sequence, `from_dict` and the tokenizer's steps are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..encoding import Encoding
from ..errors import FormatError
from ..pipeline.fields import component_list, require_object
from ..pipeline.padding import PaddingParams, pad_encodings
from ..pipeline.truncation import (TruncationParams, params_for_post_processing, truncate_as_python_class,
                                   truncate_encodings)
from .base import ALONE, UNPROCESSED, PostProcessor, SingleLayout, expect_type, process_offsets, surrounded
from .bert import BertProcessing
from .byte_level import ByteLevel
from .roberta import RobertaProcessing
from .template import (SequencePiece, SpecialPiece, SpecialToken, TemplateProcessing, bos_eos_template, parse_piece,
                       parse_template)

__all__ = [
    "PostProcessor",
    "SingleLayout",
    "ALONE",
    "UNPROCESSED",
    "surrounded",
    "process_offsets",
    "BertProcessing",
    "RobertaProcessing",
    "ByteLevel",
    "TemplateProcessing",
    "SequencePiece",
    "SpecialPiece",
    "SpecialToken",
    "parse_piece",
    "parse_template",
    "bos_eos_template",
    "Sequence",
    "from_dict",
    "default_process",
    "post_process",
]


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
        expect_type(data, "Sequence")
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


def from_dict(data: Any) -> PostProcessor:
    """Read any post-processor from its tokenizer.json form, trying variants in HF's order."""
    data = require_object(data, "a post-processor")
    errors = {}
    for name, variant in _VARIANTS:
        try:
            processor = variant.from_dict(data)
        except FormatError as error:
            errors[name] = error
        else:
            # A refused variant's traceback holds this frame and so the caller's: kept, that cycle
            # would keep a whole parsed tokenizer.json alive until the collector next runs.
            errors.clear()
            return processor
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
                 padding: PaddingParams | None = None, python_truncation: bool = False) -> Encoding:
    """The tokenizer's step after the model: truncate (keeping room for the specials; as transformers' Python
    classes do with `python_truncation`), post-process (or default_process), then pad this one encoding.
    Inputs may be modified."""
    added = processor.added_tokens(pair is not None) if processor is not None else 0
    if truncation is not None and python_truncation:
        truncate_as_python_class(encoding, pair, truncation, added if add_special_tokens else 0)
    elif (params := params_for_post_processing(truncation, added, add_special_tokens)) is not None:
        encoding, pair = truncate_encodings(encoding, pair, params)
    if processor is not None:
        result = processor.process_owned(encoding, pair, add_special_tokens)
    else:
        result = default_process(encoding, pair, add_special_tokens)
    if padding is not None:
        pad_encodings([result], padding)
    return result
