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

from typing import TYPE_CHECKING, Any

from .._lazy import lazy_names
from ..errors import FormatError
from .base import LoadPanic, Token, VocabLookup

if TYPE_CHECKING:
    from .bpe import BPE
    from .unigram import Unigram
    from .wordlevel import WordLevel
    from .wordpiece import WordPiece

# Each model's module, imported when the model is first used (a BPE file loads no Unigram).
MODEL_MODULES = {"BPE": "bpe", "WordPiece": "wordpiece", "WordLevel": "wordlevel", "Unigram": "unigram"}
__getattr__ = lazy_names(__name__, MODEL_MODULES)

__all__ = ["BPE", "Token", "Unigram", "VocabLookup", "WordLevel", "WordPiece", "model_from_dict"]


def model_from_dict(data: Any) -> Any:
    """Build a model from its tokenizer.json form; untagged legacy forms are tried in HF's order."""
    kinds = MODEL_MODULES  # the tags of tokenizer.json, in the order HF tries them untagged
    if not isinstance(data, dict):
        raise FormatError(f"expected an object, got {type(data).__name__}", field="model")
    kind = data.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind not in kinds:
            raise FormatError(f"unknown model type {kind!r} (expected one of {sorted(kinds)})", field="model.type")
        return _located(__getattr__(kind).from_dict, data)
    errors = []
    for name in kinds:
        try:
            return __getattr__(name).from_dict(data)
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
