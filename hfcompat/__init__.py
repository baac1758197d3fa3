"""hfcompat: tokenizers token-for-token identical to the official libraries, in every format.

The layers, each importing only those below it: cli/ -> tools/ -> formats/ -> the core
(tokenizer.py, specials.py) -> the components (pipeline/, normalizers/, pre_tokenizers/, models/,
trainers/, processors/, decoders/, segmentation/) -> errors.py, encoding.py, files.py.
"""

from ._backend import backend  # "compiled" or "python": the implementation in use
from .encoding import Encoding
from .errors import FormatError, PipelineMismatch, SpecialTokenError, TokenizationError, UnsupportedConversion
from .formats.convert import convert
from .formats.load import load
from .pipeline.added_vocabulary import AddedToken
from .tokenizer import Tokenizer
from .tools import Finding, VerifyReport, count_words, evaluate, lint, train, verify
from .trainers import WordCounts

__all__ = [
    "AddedToken",
    "Encoding",
    "Finding",
    "FormatError",
    "PipelineMismatch",
    "SpecialTokenError",
    "TokenizationError",
    "Tokenizer",
    "UnsupportedConversion",
    "VerifyReport",
    "WordCounts",
    "backend",
    "convert",
    "count_words",
    "evaluate",
    "lint",
    "load",
    "train",
    "verify",
]
__version__ = "0.1.0"
