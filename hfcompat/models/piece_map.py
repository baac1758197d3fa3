"""transformers' classes that run sentencepiece on a .model and look its pieces up in another table.

M2M100Tokenizer, Speech2TextTokenizer and MarianTokenizer look each piece up in vocab.json, PLBartTokenizer
shifts sentencepiece's ids by fairseq's offset, BartphoTokenizer looks the pieces up in the reduced vocabulary
of dict.txt, SiglipTokenizer keeps sentencepiece's ids: sentencepiece segments the text exactly as it does
alone (the wrapped Tokenizer, read from the .model), then each piece takes its id in `vocab`, or `unk_id` when
the table lacks it. `vocab_r` turns ids back into token strings (a superset of `vocab`'s reverse: M2M100's
language codes, the pieces of PLBart's shifted ids). MarianTokenizer first takes a language code (">>fr<<") off
the start of the text as one token of its own (`code_marks`). With `unk_text` (a SentencePieceBackend class
with legacy false, whose model then adds no dummy prefix), a text starting with a space is encoded after that
text, whose pieces are then dropped. No file format holds a table beside a .model, so `to_dict` raises
UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from .base import ModelKernel, Token, VocabLookup, reference_kernel

SPACE = "\u2581"


@dataclass
class PieceMap(VocabLookup):
    """sentencepiece's pieces of a text (from `segmenter`, a Tokenizer read from a .model), each mapped to its
    id in `vocab` (`unk_id` when absent); `vocab_r`: id -> token string (VocabLookup's reverse table). The
    vocabulary's size is `vocab`'s: transformers numbers the tokens it adds from there."""

    segmenter: Any
    vocab: dict[str, int]
    unk_id: int
    vocab_r: dict[int, str]
    code_marks: tuple[str, str] | None = None
    unk_text: str | None = None

    def tokenize_chars(self, sequence: str) -> list[Token]:
        """The mapped pieces of one text, offsets in chars."""
        if self.unk_text is not None and sequence.startswith((SPACE, " ")):
            return [self.token(piece, (0, len(sequence))) for piece in self.pieces_after_unk(sequence)]
        code, start = self._leading_code(sequence)
        tokens = [self.token(code, (0, start))] if code else []
        encoding = self.segmenter.encode(sequence[start:], add_special_tokens=False)
        for piece, (first, last) in zip(encoding.tokens, encoding.offsets):
            tokens.append(self.token(piece, (start + first, start + last)))
        return tokens

    def kernel(self) -> ModelKernel:
        """Its tokens counted in chars (no byte spans to read back)."""
        return reference_kernel(self.tokenize_chars, char_offsets=True)

    def pieces_after_unk(self, text: str) -> list[str]:
        """The pieces of `text` encoded after `unk_text`, without as many pieces as that text alone gives
        (transformers' way to keep a leading space when the model adds no dummy prefix: SentencePieceBackend
        with legacy false, SiglipTokenizer); each piece of the span offsets of the whole text."""
        unk = self.unk_text or ""
        pieces = self.segmenter.encode(unk + text, add_special_tokens=False).tokens
        drop = len(self.segmenter.encode(unk, add_special_tokens=False).tokens)
        return pieces[drop:] if len(pieces) >= drop else pieces

    def token(self, piece: str, offsets: tuple[int, int]) -> Token:
        """A piece's token: its id in the table, and the name of that id (the unk token's for a piece the
        table lacks), as transformers' convert_ids_to_tokens shows it."""
        token_id = self.vocab.get(piece, self.unk_id)
        return Token(token_id, self.vocab_r.get(token_id, piece), offsets)

    def tokenize(self, sequence: str) -> list[Token]:
        """The mapped pieces of one text, offsets in UTF-8 bytes."""
        ends = [0]
        for char in sequence:
            ends.append(ends[-1] + len(char.encode("utf-8", "surrogatepass")))
        return [Token(token_id, value, (ends[first], ends[last]))
                for token_id, value, (first, last) in self.tokenize_chars(sequence)]

    def _leading_code(self, sequence: str) -> tuple[str, int]:
        """The language code the text starts with ("" if none) and where the rest starts (Marian's
        remove_language_code: from the opening mark to the first closing mark after it)."""
        if self.code_marks is None:
            return "", 0
        opening, closing = self.code_marks
        end = sequence.find(closing) if sequence.startswith(opening) else -1
        if end == -1:
            return "", 0
        return sequence[:end + len(closing)], end + len(closing)

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds a sentencepiece model whose pieces are looked up in another table."""
        raise UnsupportedConversion("model: sentencepiece's pieces looked up in another vocabulary (vocab.json, "
                                    "dict.txt or fairseq's shifted ids, unknown pieces to the unk id) have no form "
                                    "in tokenizer.json, .model, .tiktoken, GGUF or tekken.json")
