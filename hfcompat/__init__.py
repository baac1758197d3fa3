"""hfcompat: tokenizers in pure Python, token-for-token identical to the official libraries."""

from ._backend import backend  # "compiled" or "python": the implementation in use
from .added_vocabulary import AddedToken
from .convert import convert
from .encoding import Encoding
from .evaluate import evaluate
from .errors import FormatError, SpecialTokenError, TokenizationError, UnsupportedConversion
from .load import load
from .tokenizer import Tokenizer
from .trainers import train
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
    "evaluate",
    "load",
    "train",
    "verify",
]
__version__ = "0.1.0"
