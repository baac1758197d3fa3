"""tiktoken rank files: reading and writing them (ranks.py), the encodings tiktoken knows by name
(encodings.py), and the merges a rank file implies (merges.py)."""

from .encodings import KNOWN_ENCODINGS, R50K_PATTERN
from .ranks import TiktokenSpec, read_ranks, read_tiktoken, tokenizer_from_ranks, write_tiktoken

__all__ = ["KNOWN_ENCODINGS", "R50K_PATTERN", "TiktokenSpec", "read_ranks", "read_tiktoken",
           "tokenizer_from_ranks", "write_tiktoken"]
