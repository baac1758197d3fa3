"""The subword segmentation of transformers' GPTNeoXJapaneseTokenizer (its SubWordJapaneseTokenizer, after
tanreinama's Japanese-BPEEncoder_V2), over vocab.txt and emoji.json.

vocab.txt gives id n to line n; a line holding commas lists spellings that share the id ("慶応,慶應"), and the
id reads back as the first. The text, once rewritten (spaces to "<SP>", ..., normalizers/japanese_content.py),
is cut from the left: at a "<" the longest vocabulary entry of more than two characters starting there (up
to the longest entry + 1 characters) is taken; otherwise, among the entries of one to three characters
starting there, the one with the smallest id. A character no entry starts is "<KIGOU>" (some two-byte
symbols), "<U2000U2BFF>" (U+2000-U+2BFF) or its UTF-8 bytes as
"<|byteN|>" tokens. A token outside the vocabulary takes the unknown token's id.

An id reads back as its text: a byte token as that byte decoded alone (U+FFFD unless ASCII), an emoji tag as
emoji.json's "emoji_inv" symbol, "<SP>" "<BR>" "<TAB>" as space, newline and tab, "<BLOCK>" "<KIGOU>"
"<U2000U2BFF>" as "▀" "ǀ" "‖", any other token as its first spelling. These are the token strings
transformers shows (convert_ids_to_tokens) and joins in decode. No file format holds this model: `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import TokenizationError, UnsupportedConversion
from .base import Token, VocabLookup

# What a tag reads back as.
TAG_TEXT = {"<SP>": " ", "<BR>": "\n", "<TAB>": "\t", "<BLOCK>": "▀", "<KIGOU>": "ǀ", "<U2000U2BFF>": "‖"}
# The two-byte UTF-8 sequences (as one number) that are "<KIGOU>" symbols.
KIGOU_RANGES = ((0xC2A1, 0xC2BF), (0xC780, 0xC783), (0xCAB9, 0xCBBF), (0xCC80, 0xCDA2))
U2000_RANGE = (0xE28080, 0xE2B07F)  # three-byte UTF-8 sequences, as one number
SHORT_ENTRY = 3  # entries tried at a character other than "<": up to this many characters


def symbol_token(char: str) -> list[str]:
    """The tokens of a character no vocabulary entry starts: a symbol tag, else its bytes."""
    data = char.encode("utf-8")
    number = int.from_bytes(data, "big")
    if len(data) == 2 and any(low <= number <= high for low, high in KIGOU_RANGES):
        return ["<KIGOU>"]
    if len(data) == 3 and U2000_RANGE[0] <= number <= U2000_RANGE[1]:
        return ["<U2000U2BFF>"]
    return [f"<|byte{byte}|>" for byte in data]


def token_text(token: str, emoji_inverse: dict[str, str]) -> str:
    """What a vocabulary token reads back as (TokenizationError where transformers fails: a byte token naming no
    byte, an emoji tag emoji.json does not name)."""
    if token.startswith("<|byte") and token.endswith("|>"):
        try:
            return bytes((int(token[6:-2]),)).decode("utf-8", "replace")
        except ValueError:
            raise TokenizationError(f"vocab.txt's {token!r} names no byte: transformers' GPTNeoXJapaneseTokenizer "
                                    "cannot read its id back") from None
    if token.startswith("<|emoji") and token.endswith("|>"):
        if token not in emoji_inverse:
            raise TokenizationError(f"emoji.json's 'emoji_inv' has no {token!r}: transformers' "
                                    "GPTNeoXJapaneseTokenizer cannot read its id back")
        return emoji_inverse[token]
    return TAG_TEXT.get(token, token)


class JapaneseSubwords(VocabLookup):
    """Greedy segmentation over the spellings of vocab.txt's lines (`lines`: each line's spellings, id = its
    position); `rewrite` turns a piece of text into what is segmented; `unk` is the unknown token."""

    def __init__(self, lines: list[list[str]], emoji_inverse: dict[str, str], unk: str,
                 rewrite: Callable[[str], str]):
        self.spellings: dict[str, int] = {}
        for index, spellings in enumerate(lines):
            for spelling in spellings:
                self.spellings[spelling] = index
        self.longest = max(map(len, self.spellings), default=0)
        self.unk = unk
        self.rewrite = rewrite
        self.vocab: dict[str, int] = {",".join(spellings): index for index, spellings in enumerate(lines)}
        self.first_spellings = [spellings[0] for spellings in lines]
        self.emoji_inverse = emoji_inverse
        self.vocab_r: dict[int, str] = {}  # the texts of the ids read so far

    def id_to_token(self, token_id: int) -> str | None:
        """The text an id reads back as (see the module docstring), or None for an id vocab.txt lacks."""
        text = self.vocab_r.get(token_id)
        if text is None and 0 <= token_id < len(self.first_spellings):
            text = self.vocab_r[token_id] = token_text(self.first_spellings[token_id], self.emoji_inverse)
        return text

    def entry_at(self, text: str, start: int) -> str | None:
        """The vocabulary entry taken at `start`, or None."""
        if text[start] == "<":
            end = min(len(text), start + self.longest + 1)
        else:
            end = start + SHORT_ENTRY
        found: list[tuple[int, str]] = []
        for stop in range(end, start, -1):
            piece = text[start:stop]
            if piece in self.spellings:
                if piece[0] == "<" and len(piece) > 2:
                    return piece
                found.append((self.spellings[piece], piece))
        return min(found, key=lambda entry: entry[0])[1] if found else None

    def pieces(self, text: str) -> list[str]:
        """The rewritten text's tokens, from the left."""
        tokens: list[str] = []
        start = 0
        while start < len(text):
            entry = self.entry_at(text, start)
            if entry is None:
                tokens += symbol_token(text[start])
                start += 1
            else:
                tokens.append(entry)
                start += len(entry)
        return tokens

    def token_id(self, token: str) -> int:
        """A token's id: its spelling's, else the unknown token's (transformers has None when that is no
        spelling either, which hfcompat refuses)."""
        token_id = self.spellings.get(token, self.spellings.get(self.unk))
        if token_id is None:
            raise TokenizationError(f"{token!r} is not in vocab.txt and neither is the unknown token {self.unk!r}: "
                                    "transformers gives it the id None")
        return token_id

    def tokenize(self, sequence: str) -> list[Token]:
        """The tokens of a piece of text, each spanning the whole piece (the rewriting moves the text)."""
        ids = [self.token_id(token) for token in self.pieces(self.rewrite(sequence))]
        return [Token(token_id, self.id_to_token(token_id), (0, len(sequence))) for token_id in ids]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds this segmentation."""
        raise UnsupportedConversion("model: GPTNeoXJapanese's subword segmentation (vocab.txt's spellings, the "
                                    "smallest id among short entries, byte tokens) has no form in tokenizer.json, "
                                    ".model, .tiktoken, GGUF or tekken.json")
