"""sentencepiece 0.2.3's Python API on hfcompat: `import hfcompat.compat.sentencepiece as spm`.

`SentencePieceProcessor` reads .model files with hfcompat's reader and encodes with its models
(ids and pieces identical to sentencepiece); `SentencePieceTrainer` trains with hfcompat's
trainers; `SentencePieceNormalizer` runs a NormalizerSpec. The real sentencepiece is not
imported. See docs/compat_sentencepiece.md for what differs.
"""

from __future__ import annotations

import random
import re
from typing import Any

from . import sentencepiece_model_pb2, sentencepiece_pb2
from .engine import Settings
from .normalizer import SentencePieceNormalizer
from .processor import SentencePieceProcessor
from .trainer import SentencePieceTrainer

__version__ = "0.2.3"


class ThreadPool:
    """A pool of threads for batch calls: accepted and counted; hfcompat's results do not depend on it."""

    def __init__(self, num_threads: int):
        self._num_threads = int(num_threads)

    def num_threads(self) -> int:
        """How many threads the pool was made with."""
        return self._num_threads


def SetRandomGeneratorSeed(seed: int) -> None:
    """Seed the sampling of every processor."""
    Settings.rng = random.Random(seed)


def SetMinLogLevel(level: int) -> None:
    """Accepted for compatibility: hfcompat logs nothing here."""


def SetNBestTimeout(milliseconds: float) -> None:
    """An n-best search running this long (0: no limit) gives the best path alone, as in sentencepiece."""
    Settings.nbest_timeout_ms = float(milliseconds)


def SetDataDir(directory: str) -> None:
    """Accepted for compatibility: hfcompat builds the named rule sets itself."""


set_random_generator_seed = SetRandomGeneratorSeed
set_min_log_level = SetMinLogLevel
set_nbest_timeout = SetNBestTimeout
set_data_dir = SetDataDir


def _snake_case(name: str) -> str:
    """A CamelCase method name as sentencepiece spells its snake_case alias (NBest -> nbest)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower().replace("n_best", "nbest")


def _add_snake_case(cls: Any) -> None:
    """Give each CamelCase method of `cls` its snake_case name too."""
    for name, member in list(vars(cls).items()):
        if name[:1].isupper():
            setattr(cls, _snake_case(name), member)


SentencePieceProcessor.Tokenize = SentencePieceProcessor.Encode
SentencePieceProcessor.Detokenize = SentencePieceProcessor.Decode
for _cls in (SentencePieceProcessor, SentencePieceTrainer, SentencePieceNormalizer):
    _add_snake_case(_cls)

__all__ = ["SentencePieceNormalizer", "SentencePieceProcessor", "SentencePieceTrainer", "SetDataDir",
           "SetMinLogLevel", "SetNBestTimeout", "SetRandomGeneratorSeed", "ThreadPool", "sentencepiece_model_pb2",
           "sentencepiece_pb2", "set_data_dir", "set_min_log_level", "set_nbest_timeout", "set_random_generator_seed"]
