"""The decode of transformers' FSMTTokenizer and BioGptTokenizer: BPE words joined, then Moses detokenization.

Each token loses its spaces and has "</w>" read as a word end; the words of the joined text go to
sacremoses' MosesDetokenizer of the class's language, which also unescapes "&amp;" and the like. No
tokenizer.json holds it: `to_dict` raises UnsupportedConversion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import UnsupportedConversion
from ..pre_tokenizers.moses import sacremoses
from .base import Decoder

WORD_END = "</w>"


@dataclass
class MosesDetokenizer(Decoder):
    """The words the tokens spell, detokenized by Moses in `lang`."""

    lang: str = "en"
    _detokenizer: Any = field(init=False, repr=False, compare=False)
    TYPE: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self._detokenizer = sacremoses().MosesDetokenizer(lang=self.lang)

    def decode_chain(self, tokens: list[str]) -> list[str]:
        """One text: the words of the tokens, Moses-detokenized."""
        words = "".join(token.replace(" ", "").replace(WORD_END, " ") for token in tokens).split()
        return [self._detokenizer.detokenize(words)]

    def to_dict(self) -> dict[str, Any]:
        """Refused: tokenizer.json has no Moses detokenizer."""
        raise UnsupportedConversion(f"decoder: Moses detokenization (sacremoses, lang {self.lang!r}) has no form "
                                    "in tokenizer.json")
