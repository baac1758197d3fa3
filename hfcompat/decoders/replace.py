"""Replace: a pattern replaced in each token, as the Replace normalizer does."""

from __future__ import annotations


from ..normalizers import Replace as ReplaceNormalizer
from ..pipeline.oniguruma import find_spans
from .base import Decoder


class Replace(ReplaceNormalizer, Decoder):
    """Replace: every match of `pattern` in each token becomes `content`.

    HF uses one object as normalizer and decoder, so this is the normalizer with `decode_chain`:
    fields, JSON form and regex compilation all come from `normalizers.Replace`.
    """

    def _replace(self, token: str) -> str:
        """Replace in one token; an empty token stays empty (HF never matches inside it)."""
        if not token:
            return token
        if not self.is_regex:
            # Leftmost non-overlapping literal matches, empty pattern included, as Oniguruma finds them.
            return token.replace(self.pattern, self.content)
        pieces, previous = [], 0
        for start, end in find_spans(self._compiled, token):
            pieces.append(token[previous:start])
            pieces.append(self.content)
            previous = end
        pieces.append(token[previous:])
        return "".join(pieces)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace in every token."""
        return [self._replace(token) for token in tokens]
