"""transformers' SiglipTokenizer's own text handling around sentencepiece, as a pre-tokenizer that tokenizes.

SiglipTokenizer (transformers 5.24) turns every "▁" of the text into a space and puts one "▁" before the text,
then cuts it around the special tokens. Each piece of text between them is canonicalized (lowercased unless
do_lower_case is false, ASCII punctuation removed, each run of whitespace (str.isspace) one space, stripped)
and encoded by sentencepiece after the unk token's text, whose pieces are then dropped (as many as the unk
token's text alone gives). A first token "▁" right before a special token is dropped.

What the first piece of text is depends on where it lies, which only a pre-tokenizer sees (the model gets one
piece at a time): this step sets the tokens of every text split itself, and adds a split for the "▁" alone
when the text starts with a special token or is empty. No file format holds it: `to_dict` raises
UnsupportedConversion.
"""

from __future__ import annotations

import re
import string
from typing import Any

from ..errors import UnsupportedConversion
from ..pipeline.normalized import NormalizedString, PreTokenizedString, Split
from .base import PreTokenizer

SPACE = "\u2581"
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_WHITESPACE = re.compile(r"\s+")


class SiglipText(PreTokenizer):
    """Each text split tokenized as SiglipTokenizer tokenizes it: `model` (models/piece_map.py, with the unk
    token's text) encodes a canonical text after the unk token and gives each piece its token; `specials`: the
    tokens before which a leading "▁" token goes."""

    def __init__(self, model: Any, lowercase: bool, specials: frozenset[str]):
        self.model = model
        self.lowercase = lowercase
        self.specials = specials

    def canonical(self, text: str) -> str:
        """SiglipTokenizer's canonicalize_text: lowercased, ASCII punctuation removed, whitespace folded."""
        text = text.lower() if self.lowercase else text
        return _WHITESPACE.sub(" ", text.translate(_PUNCTUATION)).strip()

    def pieces(self, text: str) -> list[str]:
        """The pieces of one piece of text between special tokens (its "▁" already turned into spaces)."""
        return self.model.pieces_after_unk(self.canonical(text))

    def pre_tokenize(self, pts: PreTokenizedString) -> None:
        """Set every text split's tokens; the text's first one follows a "▁"."""
        splits = pts.splits
        if not splits or splits[0].tokens is not None:
            splits.insert(0, Split(NormalizedString("")))
        for index, split in enumerate(splits):
            if split.tokens is not None:
                continue
            text = split.normalized.normalized.replace(SPACE, " ")
            pieces = self.pieces(SPACE + text if index == 0 else text)
            if index == 0 and pieces[:1] == [SPACE] and len(splits) > 1 and splits[1].tokens is not None \
                    and len(pieces) == 1 and splits[1].tokens[0].value in self.specials:
                pieces = []
            width = len(split.normalized.normalized.encode("utf-8", "surrogatepass"))
            split.tokens = [self.model.token(piece, (0, width)) for piece in pieces]
        pts.splits = [split for split in splits if split.tokens]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no pre-tokenizer that tokenizes as SiglipTokenizer does."""
        raise UnsupportedConversion("pre_tokenizer: SiglipTokenizer's text handling (a '▁' before the text, "
                                    "canonicalized pieces encoded after the unk token) has no form in tokenizer.json")
