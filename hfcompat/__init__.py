"""hfcompat: tokenizers in pure Python, token-for-token identical to the official libraries."""

from .added_vocabulary import AddedToken
from .convert import convert
from .encoding import Encoding
from .errors import FormatError, SpecialTokenError, TokenizationError, UnsupportedConversion
from .load import load
from .tokenizer import Tokenizer
from .verify import VerifyReport, verify

__all__ = [
    "AddedToken",
    "Encoding",
    "FormatError",
    "SpecialTokenError",
    "TokenizationError",
    "Tokenizer",
    "UnsupportedConversion",
    "VerifyReport",
    "convert",
    "load",
    "verify",
]
__version__ = "0.1.0"
