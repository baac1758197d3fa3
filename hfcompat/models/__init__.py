"""Tokenization models: each turns one pre-token into tokens.

A model exposes `tokenize(sequence) -> list[Token]`, `token_to_id`, `id_to_token`,
`get_vocab`, `get_vocab_size`, `to_dict` and the classmethod `from_dict`. Each model's module
holds its algorithm and its tokenizer.json form; its trainer sits in `hfcompat.trainers`.
rwkv.py (RWKV's world tokenizer) and plamo2.py (PLaMo-2's) hold models that only a GGUF file
holds: the GGUF reader builds them, they have no `from_dict`, and their `to_dict` refuses.
utf8_bytes.py (transformers' ByT5, Perceiver and Dia: one token chr(b) per UTF-8 byte) and code_points.py
(CANINE: one token per character) are built by the transformers
directory reader alone and refused by every writer likewise, as is pair_rank_bpe.py (the word BPE of
transformers' XLM, Flaubert, FSMT and BioGpt classes: merges on strings, vocabulary looked up after).
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError
from .base import LoadPanic, Token, VocabLookup
from .bpe import BPE
from .unigram import Unigram
from .wordlevel import WordLevel
from .wordpiece import WordPiece

__all__ = ["BPE", "Token", "Unigram", "VocabLookup", "WordLevel", "WordPiece", "model_from_dict"]


def model_from_dict(data: Any) -> Any:
    """Build a model from its tokenizer.json form; untagged legacy forms are tried in HF's order."""
    kinds = {"BPE": BPE, "WordPiece": WordPiece, "WordLevel": WordLevel, "Unigram": Unigram}
    if not isinstance(data, dict):
        raise FormatError(f"expected an object, got {type(data).__name__}", field="model")
    kind = data.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind not in kinds:
            raise FormatError(f"unknown model type {kind!r} (expected one of {sorted(kinds)})", field="model.type")
        return _located(kinds[kind].from_dict, data)
    errors = []
    for name, cls in kinds.items():
        try:
            return cls.from_dict(data)
        except LoadPanic as error:
            raise error.at(field="model") from None
        except FormatError as error:
            errors.append(f"{name}: {error}")
    raise FormatError("untagged model matches no model type (" + "; ".join(errors) + ")", field="model")


def _located(build: Any, data: dict) -> Any:
    """Call `build(data)`, prefixing any FormatError's field with 'model'."""
    try:
        return build(data)
    except FormatError as error:
        raise error.at(field="model") from None
