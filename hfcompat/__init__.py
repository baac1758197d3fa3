"""hfcompat: tokenizers token-for-token identical to the official libraries, in every format.

The layers, each importing only those below it: cli/ -> tools/ -> formats/ -> the core
(tokenizer.py, specials.py) -> the components (pipeline/, normalizers/, pre_tokenizers/, models/,
trainers/, processors/, decoders/, segmentation/) -> errors.py, encoding.py, files.py.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _backend

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports each on first use
    from .encoding import Encoding
    from .errors import (FormatError, InexactConversion, PipelineMismatch, SpecialTokenError, TokenizationError,
                         UnsupportedConversion)
    from .formats.convert import convert
    from .formats.load import load
    from .pipeline.added_vocabulary import AddedToken
    from .tokenizer import Tokenizer
    from .tools.evaluate import evaluate
    from .tools.lint import Finding, lint
    from .tools.train import count_words, train
    from .tools.verify import VerifyReport, verify
    from .trainers import WordCounts

    backend: str

# Each public name and the module that holds it: the module is imported when the name is first
# read (PEP 562), so `import hfcompat` builds nothing and a command loads only what it uses.
_PUBLIC = {
    "AddedToken": "pipeline.added_vocabulary",
    "Encoding": "encoding",
    "Finding": "tools.lint",
    "FormatError": "errors",
    "InexactConversion": "errors",
    "PipelineMismatch": "errors",
    "SpecialTokenError": "errors",
    "TokenizationError": "errors",
    "Tokenizer": "tokenizer",
    "UnsupportedConversion": "errors",
    "VerifyReport": "tools.verify",
    "WordCounts": "trainers",
    "convert": "formats.convert",
    "count_words": "tools.train",
    "evaluate": "tools.evaluate",
    "lint": "tools.lint",
    "load": "formats.load",
    "train": "tools.train",
    "verify": "tools.verify",
}


def __getattr__(name: str) -> Any:
    """A public name, its module imported on first use."""
    if name == "backend":  # "compiled" or "python": the implementation in use
        _backend.load_all()  # the compiled core, when it was built, is then in use
        return _backend.backend
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, loaded or not."""
    return sorted({*globals(), *_PUBLIC, "backend"})


__all__ = [
    "AddedToken",
    "Encoding",
    "Finding",
    "FormatError",
    "InexactConversion",
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
