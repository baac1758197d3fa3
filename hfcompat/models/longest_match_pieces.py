"""transformers' CpmAntTokenizer model: each word cut into the longest vocabulary entries from its start.

Its WordpieceTokenizer (no "##" prefix) takes, from each position, the longest substring in the vocabulary;
a character no entry starts gives the unknown token and the scan moves one character on; a word of more than
`max_chars` characters is the unknown token alone. A piece is looked up among the added tokens first (transformers'
convert_tokens_to_ids), and `aliases` are whole splits the class maps to the unknown token's id (its space and
line tokens, removed from the vocabulary but still cut out of the text). No file format holds this, so `to_dict`
raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from ..pipeline.added_vocabulary import AddedVocabulary
from .base import Token, VocabLookup


class LongestMatchPieces(VocabLookup):
    """Greedy longest-match pieces over `vocab`, `unk_token` for an unmatched character."""

    def __init__(self, vocab: dict[str, int], unk_token: str, aliases: frozenset[str] = frozenset(),
                 max_chars: int = 200):
        self.vocab = vocab
        self.vocab_r = {token_id: token for token, token_id in vocab.items()}
        self.unk_token = unk_token
        self.aliases = aliases
        self.max_chars = max_chars
        self.longest = max(map(len, vocab), default=0)
        self.added = AddedVocabulary()

    def bind_added_vocabulary(self, added: AddedVocabulary) -> None:
        """Look pieces up among these added tokens first (the tokenizer's, once loading added them all)."""
        self.added = added

    def pieces(self, word: str) -> list[tuple[str, int, int]]:
        """(piece, start, end) in characters; an unmatched character is the unknown token over itself."""
        if len(word) > self.max_chars or word in self.aliases:
            return [(self.unk_token, 0, len(word))]
        found = []
        start = 0
        while start < len(word):
            end = min(len(word), start + self.longest)
            while end > start and word[start:end] not in self.vocab:
                end -= 1
            if end == start:
                found.append((self.unk_token, start, start + 1))
                start += 1
            else:
                found.append((word[start:end], start, end))
                start = end
        return found

    def piece_id(self, piece: str) -> int:
        """The piece's id as an added token, else in the vocabulary, else the unknown token's."""
        for candidate in (piece, self.unk_token):
            found = self.added.token_to_id.get(candidate, self.vocab.get(candidate))
            if found is not None:
                return found
        raise TokenizationError(f"piece {piece!r} is not in the vocabulary, nor is the unknown token "
                                f"{self.unk_token!r} (transformers gives it the id None)")

    def tokenize(self, sequence: str) -> list[Token]:
        """The pieces of one word, offsets in UTF-8 bytes."""
        byte_starts = [0]
        for char in sequence:
            byte_starts.append(byte_starts[-1] + len(char.encode("utf-8", "surrogatepass")))
        tokens = []
        for piece, start, end in self.pieces(sequence):
            token_id = self.piece_id(piece)
            token = self.added.id_to_token(token_id) or self.vocab_r.get(token_id, piece)
            tokens.append(Token(token_id, token, (byte_starts[start], byte_starts[end])))
        return tokens

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json's WordPiece makes a whole word unknown where this cuts one character."""
        raise UnsupportedConversion("model: CpmAntTokenizer's longest-match pieces (an unknown character alone "
                                    "becomes the unknown token) have no form in tokenizer.json")
