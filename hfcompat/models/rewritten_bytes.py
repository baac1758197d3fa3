"""MyT5's model: the text's UTF-8 bytes as hex tokens ("e3"), rewritten by byte_maps.json's decompose map and
then its merge map (pipeline/byte_rewriting.py), each token's id its byte value + `offset`.

transformers' MyT5Tokenizer reads a token's id from its two hex digits (any case: a rule may write "E3") and
names an id back as two lowercase digits, which are this model's token strings. A rule writing a token of
another length gives transformers the id None; hfcompat raises TokenizationError there. No file format holds
the rewriting, so `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from typing import Any

from ..errors import TokenizationError, UnsupportedConversion
from ..pipeline.byte_rewriting import ByteRewriter, matches
from .base import Token, VocabLookup

HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
Span = tuple[int, int]


def rewritten_spans(tokens: list[str], spans: list[Span], rewriter: ByteRewriter) -> tuple[list[str], list[Span]]:
    """The tokens rewritten, each output token spanning the input tokens its rule replaced."""
    out_tokens: list[str] = []
    out_spans: list[Span] = []
    for start, end, written in matches(tokens, rewriter.forward):
        out_tokens += written
        out_spans += [(spans[start][0], spans[end - 1][1])] * len(written)
    return out_tokens, out_spans


class RewrittenBytes(VocabLookup):
    """Hex byte tokens after the decompose and merge rewriting; byte b -> id b + `offset`; `specials` (token ->
    id) known to the vocabulary only."""

    def __init__(self, offset: int, specials: dict[str, int], decompose: ByteRewriter, merge: ByteRewriter):
        self.offset = offset
        self.decompose = decompose
        self.merge = merge
        self.vocab: dict[str, int] = {**specials, **{f"{b:02x}": b + offset for b in range(256)}}
        self.vocab_r: dict[int, str] = {i: token for token, i in self.vocab.items()}

    def byte_id(self, token: str) -> int:
        """The id of a two-hex-digit token; another token is refused (transformers' id is None)."""
        if len(token) != 2 or not set(token) <= HEX_DIGITS:
            raise TokenizationError(f"byte_maps.json rewrote bytes into {token!r}, not two hex digits: transformers' "
                                    "MyT5Tokenizer gives it no id")
        return int(token, 16) + self.offset

    def tokenize(self, sequence: str) -> list[Token]:
        """The rewritten hex tokens, offsets in bytes (a token spans the bytes its rules replaced)."""
        data = sequence.encode("utf-8", "surrogatepass")
        tokens = [f"{byte:02x}" for byte in data]
        spans = [(index, index + 1) for index in range(len(data))]
        for rewriter in (self.decompose, self.merge):
            tokens, spans = rewritten_spans(tokens, spans, rewriter)
        ids = [self.byte_id(token) for token in tokens]
        return [Token(token_id, self.vocab_r[token_id], span) for token_id, span in zip(ids, spans)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: no format holds MyT5's byte rewriting."""
        raise UnsupportedConversion("model: MyT5's byte rewriting (byte_maps.json's decompose and merge maps over "
                                    "hex byte tokens) has no form in tokenizer.json, .model, .tiktoken, GGUF or "
                                    "tekken.json")
