"""MistralCommonBackend: transformers' wrapper of mistral-common, as AutoTokenizer runs it on a directory.

AutoTokenizer picks it when tokenizer_config.json names it, or when config.json's model type maps to it and
the directory holds tekken.json (auto_class.py); without tekken.json it reads a SentencePiece model of the
directory (tokenizer.model.v3, ...). It reads no tokenizer_config.json option: it opens tekken.json
with mistral-common in its default "test" mode, so a call adds <s> and never </s>, text spelling a special
token is plain text, and decode keeps special tokens unless skip_special_tokens (mistral-common's KEEP and
IGNORE policies). hfcompat's tekken.json reader (formats/tekken.py) already encodes and decodes as
mistral-common's Tekkenizer; this module only adds what the wrapper does around it.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from ... import processors
from ...tokenizer import Tokenizer
from ..sentencepiece.read import read_sentencepiece, sentencepiece_source
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
SENTENCEPIECE_DECODE_RULE = ("decodes a SentencePiece model's ids without skip_special_tokens as the raw pieces "
                             "joined ('\u2581Hello<0x09>', mistral-common's KEEP policy); hfcompat decodes their text")
# The suffixes of the SentencePiece files mistral-common reads ("tokenizer.model.v3", "....model.v7m1").
SENTENCEPIECE_SUFFIXES = re.compile(r"\.model(\.v[0-9]+(m[0-9]+)?)?")


def tokenizer_file(directory: Path) -> Path | None:
    """The file mistral-common reads from a directory: tekken.json, else the last by name of its SentencePiece
    models (named *.model or *.model.vN[mM], as mistral-common's versions are), else None."""
    if (directory / MISTRAL_FILE).is_file():
        return directory / MISTRAL_FILE
    models = sorted(path for path in directory.iterdir()
                    if path.is_file() and SENTENCEPIECE_SUFFIXES.fullmatch("".join(path.suffixes)))
    return models[-1] if models else None


def is_mistral_directory(directory: Path, name: str | None) -> bool:
    """True when AutoTokenizer runs mistral-common on a file of the directory (MistralCommonBackend)."""
    return name == MISTRAL and directory.is_dir() and tokenizer_file(directory) is not None


def mistral_common_backend(directory: Path) -> Tokenizer:
    """The tokenizer MistralCommonBackend builds from the directory's tekken.json or SentencePiece model in
    "test" mode: <s> before the text, nothing after it."""
    path = tokenizer_file(directory)
    if path.name == MISTRAL_FILE:
        tokenizer, rules = read_tekken(path, add_bos=True), CALL_RULES
    else:
        tokenizer, rules = _sentencepiece_with_bos(path), (*CALL_RULES, SENTENCEPIECE_DECODE_RULE)
    tokenizer.named_special_tokens = {key: token for key, token in ROLES.items()
                                      if tokenizer.token_to_id(token) is not None}
    for rule in rules:
        warnings.warn(f"{directory}: transformers' {MISTRAL} {rule}", UserWarning, stacklevel=5)
    return tokenizer


def _sentencepiece_with_bos(path: Path) -> Tokenizer:
    """A SentencePiece model as mistral-common's SentencePieceTokenizer runs it: sentencepiece's own encode and
    decode, and the model's bos piece before each text."""
    tokenizer = read_sentencepiece(path)
    bos = sentencepiece_source(tokenizer).proto.trainer_spec.bos_id
    tokenizer.post_processor = processors.from_dict(processors.bos_eos_template((tokenizer.id_to_token(bos), bos),
                                                                                None))
    return tokenizer
