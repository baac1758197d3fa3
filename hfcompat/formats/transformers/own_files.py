"""transformers' Python classes that read vocabulary files of their own, not tokenizer.json.

Such a class (CTRLTokenizer's vocab.json + merges.txt with "@@" subwords, M2M100Tokenizer's SentencePiece
model + vocab.json, Wav2Vec2CTCTokenizer's character vocab.json, ...) is built here from the files it reads,
as a tokenizer.json dict whose components may be hfcompat's own objects where tokenizer.json cannot hold
them (saving such a tokenizer then refuses them). Each family of classes keeps its builders in a module of
its own beside this one; OWN_FILES_CLASSES is their union. Nothing here calls transformers; each family's
tests hold it to AutoTokenizer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from . import (bert_like, characters, classes, clvp, gpt_neox_japanese, jieba_classes, moses, myt5,
               sentencepiece_map, subword_nmt)

Config = dict[str, Any]
Data = dict[str, Any]
# A builder reads the class's files in the directory (FormatError naming the file when one is missing or
# damaged) and returns the pipeline the class builds.
OwnFilesBuilder = Callable[[Path, Config], Data]

OWN_FILES_CLASSES: dict[str, OwnFilesBuilder] = {**bert_like.CLASSES, **characters.CLASSES, **clvp.CLASSES,
                                                  **gpt_neox_japanese.CLASSES, **jieba_classes.CLASSES,
                                                  **moses.CLASSES, **myt5.CLASSES, **sentencepiece_map.CLASSES,
                                                  **subword_nmt.CLASSES}


def is_rebuilt(name: str | None) -> bool:
    """False when transformers loads the directory as TokenizersBackend (classes.is_rebuilt_by_class), for
    the classes here too."""
    return classes.is_rebuilt_by_class(name) or name in OWN_FILES_CLASSES
