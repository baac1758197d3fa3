"""transformers' GPTNeoXJapaneseTokenizer, built from the vocab.txt and emoji.json it reads as AutoTokenizer
runs it: each piece of text between added tokens rewritten (normalizers/japanese_content.py, with
do_clean_text's content tags when set) and segmented (models/japanese_subwords.py); nothing added around a
sequence, a pair's second sequence type id 1; decode joins the tokens' texts and strips the whitespace at both
ends (then cleans up spaces before punctuation when clean_up_tokenization_spaces is on). Nothing here calls transformers; tests/pretrained/test_gpt_neox_japanese_classes.py holds the class to
AutoTokenizer.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any, Callable

from ... import decoders
from ...errors import FormatError
from ...models.japanese_subwords import JapaneseSubwords
from ...normalizers.japanese_content import cleaned_text, tagged_text
from .classes import DEFAULT_ROLES, role
from .subword_nmt import template_dict

Config = dict[str, Any]
Data = dict[str, Any]
NAME = "GPTNeoXJapaneseTokenizer"


def _lines(path: Path) -> list[str]:
    """The file's lines as Python's text readlines gives them (line ends kept, "\\r\\n" and "\\r" as "\\n")."""
    if not path.is_file():
        raise FormatError("the class reads this file and it is missing", path=str(path))
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readlines()
    except UnicodeDecodeError as error:
        raise FormatError(f"not UTF-8: {error}", path=str(path)) from None


def read_spellings(path: Path) -> list[list[str]]:
    """vocab.txt: each line's spellings (split at commas unless the line is one comma without its end)."""
    return [[line.rstrip("\n")] if line == "," or "," not in line else line.rstrip("\n").split(",")
            for line in _lines(path)]


def read_emoji(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """emoji.json's "emoji" (symbol -> tag) and "emoji_inv" (tag -> symbol) maps."""
    try:
        data = json.loads("".join(_lines(path)))
    except json.JSONDecodeError as error:
        raise FormatError(f"not valid JSON: {error}", path=str(path)) from None
    maps = [data.get(key) if isinstance(data, dict) else None for key in ("emoji", "emoji_inv")]
    if not all(isinstance(value, dict) for value in maps):
        raise FormatError("expected the objects 'emoji' and 'emoji_inv'", path=str(path))
    return maps[0], maps[1]


def rewritten(text: str, emoji: dict[str, str], clean: bool) -> str:
    """A piece of text as the class segments it."""
    text = tagged_text(text, emoji)
    return cleaned_text(text) if clean else text


def gpt_neox_japanese(directory: Path, config: Config) -> Data:
    """GPTNeoXJapaneseTokenizer: vocab.txt + emoji.json, "$A" ("$A $B:1"), decode joined and stripped."""
    if not (directory / "vocab.txt").is_file():
        raise FormatError("the class reads this file and it is missing", path=str(directory / "vocab.txt"))
    emoji, emoji_inverse = read_emoji(directory / "emoji.json")
    unk = str(role(config, "unk_token", DEFAULT_ROLES[NAME]["unk_token"]))
    rewrite = partial(rewritten, emoji=emoji, clean=bool(config.get("do_clean_text", False)))
    model = JapaneseSubwords(read_spellings(directory / "vocab.txt"), emoji_inverse, unk, rewrite)
    decoder = decoders.RewrittenText(decoders.Fuse(), "(?!)", "", strip=True)
    if config.get("clean_up_tokenization_spaces"):
        decoder = decoders.CleanedUp(decoder)
    return {"model": model, "decoder": decoder, "post_processor": template_dict([("A", 0)], [("A", 0), ("B", 1)])}


CLASSES: dict[str, Callable[[Path, Config], Data]] = {NAME: gpt_neox_japanese}
