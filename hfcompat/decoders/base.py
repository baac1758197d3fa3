"""What every decoder shares: the Decoder base (`decode_chain`, `decode`, `prepare_ids`) and the clean-up rules of
HF's WordPiece decoder and of transformers' `clean_up_tokenization`."""

from __future__ import annotations

from typing import Any, ClassVar



REPLACEMENT_CHAR = "\ufffd"


# The replacements of HF's WordPiece decoder `cleanup`, applied one after the other.
_CLEANUP_RULES: tuple[tuple[str, str], ...] = (
    (" .", "."),
    (" ?", "?"),
    (" !", "!"),
    (" ,", ","),
    (" ' ", "'"),
    (" n't", "n't"),
    (" 'm", "'m"),
    (" do not", " don't"),
    (" 's", "'s"),
    (" 've", "'ve"),
    (" 're", "'re"),
)


# transformers' `clean_up_tokenization` has the same rules, in the same order, but no "do not".
_TRANSFORMERS_CLEANUP_RULES = tuple(rule for rule in _CLEANUP_RULES if rule[0] != " do not")


def _apply_rules(text: str, rules: tuple[tuple[str, str], ...]) -> str:
    """Apply each (old, new) literal replacement in turn."""
    if " " not in text:  # every rule starts with a space
        return text
    for old, new in rules:
        text = text.replace(old, new)
    return text


def wordpiece_cleanup(text: str) -> str:
    """HF `tokenizers`' cleanup of tokenization artifacts (WordPiece and CTC decoders)."""
    return _apply_rules(text, _CLEANUP_RULES)


def clean_up_tokenization(text: str) -> str:
    """transformers' `clean_up_tokenization` (`clean_up_tokenization_spaces=True`): no "do not" rule."""
    return _apply_rules(text, _TRANSFORMERS_CLEANUP_RULES)


class Decoder:
    """Base of all decoders: `decode` joins what `decode_chain` returns."""

    TYPE: ClassVar[str] = ""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Decode each token (or the whole list) into a new list of strings."""
        raise NotImplementedError

    def decode(self, tokens: list[str]) -> str:
        """Decode the tokens into the final text."""
        return "".join(self.decode_chain(list(tokens)))

    def prepare_ids(self, ids: list[int]) -> list[int]:
        """The ids to decode, before they become tokens (a CTC decoder collapses repeats); as they are here."""
        return ids

    def to_dict(self) -> dict[str, Any]:
        """The tokenizer.json form of this decoder."""
        raise NotImplementedError
