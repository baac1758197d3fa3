"""MistralCommonBackend: transformers' wrapper of mistral-common, as AutoTokenizer runs it on a directory.

AutoTokenizer picks it when tokenizer_config.json names it, or when config.json's model type maps to it and
the directory holds tekken.json (auto_class.py). It reads no tokenizer_config.json option: it opens tekken.json
with mistral-common in its default "test" mode, so a call adds <s> and never </s>, text spelling a special
token is plain text, and decode keeps special tokens unless skip_special_tokens (mistral-common's KEEP and
IGNORE policies). hfcompat's tekken.json reader (formats/tekken.py) already encodes and decodes as
mistral-common's Tekkenizer; this module only adds what the wrapper does around it.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ...tokenizer import Tokenizer
from ..tekken import read_tekken
from .auto_class import MISTRAL, MISTRAL_FILE

# The wrapper's roles (mistral-common's SpecialTokens) among the file's special tokens.
ROLES = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}
# What the wrapper does that hfcompat's encode and decode do not.
CALL_RULES = (
    "refuses a pair of texts (ValueError); hfcompat encodes a pair as '<s> $A <s> $B'",
    "removes a leading 'lang:xx' (Voxtral's language prefix, two lowercase letters) from text decoded with "
    "skip_special_tokens; hfcompat keeps it",
)


def is_tekken_directory(directory: Path, name: str | None) -> bool:
    """True when AutoTokenizer runs mistral-common on the directory's tekken.json (mistral-common prefers it
    to any SentencePiece file beside it)."""
    return name == MISTRAL and (directory / MISTRAL_FILE).is_file()


def mistral_common_backend(directory: Path) -> Tokenizer:
    """The tokenizer MistralCommonBackend builds from the directory's tekken.json in "test" mode."""
    tokenizer = read_tekken(directory / MISTRAL_FILE, add_bos=True)
    specials = tokenizer.added_vocabulary.token_to_id
    tokenizer.named_special_tokens = {key: token for key, token in ROLES.items() if token in specials}
    for rule in CALL_RULES:
        warnings.warn(f"{directory}: transformers' {MISTRAL} {rule}", UserWarning, stacklevel=5)
    return tokenizer
