"""Metaspace: the ▁ replacement back into spaces, the prepended one dropped as its scheme says."""

from __future__ import annotations


from ..pre_tokenizers import Metaspace as MetaspacePreTokenizer
from .base import Decoder


class Metaspace(MetaspacePreTokenizer, Decoder):
    """Metaspace: the replacement char becomes a space; the first token loses all of them.

    HF uses one object as pre-tokenizer and decoder, so this is the pre-tokenizer with
    `decode_chain`: fields, checks and JSON form come from `pre_tokenizers.Metaspace`.
    """

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Replace the replacement char by a space, deleting it in the first token unless `never`."""
        replacement = self.replacement
        out = [token.replace(replacement, " ") for token in tokens]
        if out and self.prepend_scheme != "never":
            out[0] = tokens[0].replace(replacement, "")
        return out
