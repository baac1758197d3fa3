"""What transformers' classes do to decoded text that tokenizer.json cannot say: its clean-up (CleanedUp),
a rewrite of the text (RewrittenText), and the runs between special tokens decoded apart (SpecialTokenRuns)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from .base import Decoder, clean_up_tokenization


@dataclass
class CleanedUp(Decoder):
    """transformers' decode with clean_up_tokenization_spaces on: the inner decoder's text with its clean-up
    rules (" ." -> ".", " 's" -> "'s", ...). hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    TYPE: ClassVar[str] = ""
    clean_up: ClassVar[bool] = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: the inner decode, cleaned up."""
        return [clean_up_tokenization(self.inner.decode(tokens))]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json applies transformers' clean-up."""
        raise UnsupportedConversion("decoder: transformers' clean_up_tokenization_spaces (spaces before "
                                    "punctuation and contractions removed), which no tokenizer.json decoder does")


@dataclass
class RewrittenText(Decoder):
    """What a transformers class does to the decoded text: the inner decoder's text with each match of
    `pattern` (a Python regex) replaced, then, with `strip`, stripped of whitespace at both ends (str.strip).
    CLIPTokenizer turns "</w>" into spaces and strips; WhisperTokenizer drops timestamp tokens' text.
    hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    pattern: str
    replacement: str
    strip: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: the inner decode, rewritten."""
        text = re.sub(self.pattern, self.replacement, self.inner.decode(tokens))
        return [text.strip() if self.strip else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json rewrites the joined text with a regex."""
        raise UnsupportedConversion(f"decoder: the decoded text is rewritten ({self.pattern!r} -> "
                                    f"{self.replacement!r}{', stripped' if self.strip else ''}) as a "
                                    "transformers class does, which no tokenizer.json decoder does")


@dataclass
class SpecialTokenRuns(Decoder):
    """What transformers' GPTSw3Tokenizer does in decode: the pieces between special tokens are decoded by the
    inner decoder run by run, each special token is kept as it is, and a space comes before the first special
    token after a run (`space_before`; M2M100Tokenizer has none) or after each special token (`space_after`:
    Speech2TextTokenizer, MarianTokenizer). hfcompat's own: a tokenizer.json cannot hold it."""

    inner: Decoder
    specials: frozenset[str]
    space_before: bool = True
    space_after: bool = False
    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One string: each run decoded, special tokens spliced in."""
        out, run, previous_special = [], [], False
        for token in tokens:
            if token in self.specials:
                if self.space_before and not previous_special:
                    out.append(" ")
                out += [self.inner.decode(run), token, " " if self.space_after else ""]
                run = []
            else:
                run.append(token)
            previous_special = token in self.specials
        return ["".join(out) + self.inner.decode(run)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no decoder of tokenizer.json decodes the runs between special tokens apart."""
        raise UnsupportedConversion("decoder: the pieces between special tokens are decoded run by run, with a "
                                    "space before special tokens, as a transformers class does, which no "
                                    "tokenizer.json decoder does")
