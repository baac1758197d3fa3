"""tiktoken's API on hfcompat: `import hfcompat.compat.tiktoken as tiktoken` and code written for
tiktoken 0.14 runs unchanged, on hfcompat's rank-file reader and Tokenizer (no tiktoken needed).

Submodules as in tiktoken: `core` (Encoding), `load` (rank and data-gym files, from tiktoken's
cache; never downloaded), `registry` (encodings by name, `tiktoken_ext` plugins), `model`.
"""

from . import core, load, model, registry
from .core import Encoding
from .model import encoding_for_model, encoding_name_for_model
from .registry import VERSION, get_encoding, list_encoding_names

__version__ = VERSION

__all__ = ["Encoding", "core", "encoding_for_model", "encoding_name_for_model", "get_encoding",
           "list_encoding_names", "load", "model", "registry"]
