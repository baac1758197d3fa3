"""transformers' ClvpTokenizer, built from the vocab.json and merges.txt it reads as AutoTokenizer runs it: each
piece of text between added tokens cleaned as English (normalizers/english_cleaners.py: ASCII only, lowercase,
numbers and abbreviations spelled out, whitespace collapsed), cut into GPT-2's byte-level words
(pre_tokenizers/cleaned_byte_level.py), merged by merges.txt's ranks over strings (models/pair_rank_bpe.py, a
lone "Ġ" written "[SPACE]" when the vocabulary has it); nothing added around a sequence, a pair's second
sequence type id 1; decode reads the byte-level text back, with the class's own clean-up when
clean_up_tokenization_spaces is on (decoders/clvp_text.py). Nothing here calls transformers;
tests/pretrained/test_clvp_classes.py holds the class to AutoTokenizer.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable

from ...decoders.clvp_text import ClvpText
from ...models.pair_rank_bpe import PairRankBPE
from ...normalizers.english_cleaners import english_cleaners
from ...pipeline.bytelevel import BYTE_TO_CHAR
from ...pre_tokenizers.cleaned_byte_level import CleanedByteLevel
from .classes import token_text
from .subword_nmt import class_role, read_merges, read_vocab_json, template_dict

Config = dict[str, Any]
Data = dict[str, Any]
NAME = "ClvpTokenizer"
SPACE_TOKEN = "[SPACE]"
STOP_TOKEN = "[STOP]"
LONE_SPACE = BYTE_TO_CHAR[ord(" ")]  # "Ġ"


def known_tokens(vocab: dict[str, int], config: Config) -> set[str]:
    """The vocabulary's tokens and those the config adds (roles, extra special tokens, added_tokens_decoder)."""
    roles = {class_role(config, NAME, key) for key in ("unk_token", "bos_token", "eos_token", "pad_token")}
    extras = [token for key in ("additional_special_tokens", "extra_special_tokens") for token in config.get(key) or []]
    decoder = config.get("added_tokens_decoder")
    added = list(decoder.values()) if isinstance(decoder, dict) else []
    return set(vocab) | roles | {text for text in map(token_text, extras + added) if text}


def clvp(directory: Path, config: Config) -> Data:
    """ClvpTokenizer: vocab.json + merges.txt after English cleaning, "$A" ("$A $B:1")."""
    vocab = read_vocab_json(directory / "vocab.json")
    ranks = read_merges(directory / "merges.txt", header=True)
    unk = class_role(config, NAME, "unk_token")
    if unk not in vocab:
        warnings.warn(f"{directory}: vocab.json has no {unk!r}, so transformers gives the id None to a piece outside "
                      "it; hfcompat raises TokenizationError there", UserWarning, stacklevel=4)
    renamed = {LONE_SPACE: SPACE_TOKEN} if SPACE_TOKEN in vocab else {}
    known = known_tokens(vocab, config)
    decoder = ClvpText(str(config.get("errors", "replace")), bool(config.get("clean_up_tokenization_spaces")),
                       tuple(token for token in (SPACE_TOKEN, STOP_TOKEN) if token in known), unk)
    return {"model": PairRankBPE(vocab, ranks, unk, end_of_word="", renamed=renamed),
            "pre_tokenizer": CleanedByteLevel(english_cleaners), "decoder": decoder,
            "post_processor": template_dict([("A", 0)], [("A", 0), ("B", 1)])}


CLASSES: dict[str, Callable[[Path, Config], Data]] = {NAME: clvp}
