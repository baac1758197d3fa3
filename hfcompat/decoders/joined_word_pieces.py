"""The decode of transformers' Python WordPiece tokenizers (ProphetNet, RoCBert, BertJapanese, ...).

Their convert_tokens_to_string joins all tokens (added ones too) with spaces, removes every " ##", strips the
ends, and decode then runs transformers' clean_up_tokenization over the whole text when
clean_up_tokenization_spaces is on (tokenizers' WordPiece decoder cleans each token apart and strips nothing).
No tokenizer.json decoder does this: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedConversion
from .base import Decoder, clean_up_tokenization


@dataclass
class JoinedWordPieces(Decoder):
    """Tokens joined by spaces, " " + prefix removed, stripped; transformers' clean-up with `cleanup`."""

    prefix: str = "##"
    cleanup: bool = True
    @property
    def clean_up(self) -> bool:
        """True when this decoder runs transformers' clean-up itself (load_pretrained then says nothing of it)."""
        return self.cleanup

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """The one text of all the tokens."""
        text = " ".join(tokens).replace(" " + self.prefix, "").strip()
        return [clean_up_tokenization(text) if self.cleanup else text]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizers' WordPiece decoder works token by token and strips nothing."""
        raise UnsupportedConversion("decoder: transformers' Python WordPiece decode (tokens joined, ' ##' removed, "
                                    "stripped, cleaned up as a whole) has no exact form in tokenizer.json")
