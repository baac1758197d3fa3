"""RagTokenizer: transformers' pair of tokenizers of a RAG model directory, as AutoTokenizer loads it.

A directory whose config.json has model_type "rag" (and no tokenizer_config.json naming another class) is
loaded by AutoTokenizer as RagTokenizer: the question encoder's tokenizer from question_encoder_tokenizer/ and
the generator's from generator_tokenizer/, each picked with the model config config.json holds for it
("question_encoder", "generator"). Its __call__ runs the question encoder's tokenizer, so that is the one
hfcompat loads; its decode runs the generator's, which hfcompat does not (a warning says so: load the generator's
sub-directory to decode what the generator produced).
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ...errors import FormatError
from ...tokenizer import Tokenizer
from .auto_class import auto_class, read_model_config
from .pretrained import load_pretrained, read_config

RAG = "RagTokenizer"
QUESTION_ENCODER = "question_encoder_tokenizer"
GENERATOR = "generator_tokenizer"


def is_rag_directory(directory: Path) -> bool:
    """True when AutoTokenizer loads the directory as RagTokenizer."""
    return (directory / "config.json").is_file() and auto_class(directory, read_config(directory)) == RAG


def load_rag(directory: Path) -> Tokenizer:
    """The question encoder's tokenizer, which RagTokenizer's __call__ runs."""
    model = read_model_config(directory)
    sub_config = model.get("question_encoder")
    if not isinstance(sub_config, dict):
        raise FormatError("a RAG config needs the question encoder's model config (transformers refuses it too)",
                          path=str(directory / "config.json"), field="question_encoder")
    if not (directory / QUESTION_ENCODER).is_dir():
        raise FormatError(f"missing: RagTokenizer loads the question encoder's tokenizer from {QUESTION_ENCODER}/",
                          path=str(directory / QUESTION_ENCODER))
    tokenizer = load_pretrained(directory / QUESTION_ENCODER, model_config=sub_config)
    warnings.warn(f"{directory}: transformers' {RAG} encodes with the question encoder's tokenizer "
                  f"({QUESTION_ENCODER}/, loaded here) but decodes with the generator's ({GENERATOR}/); hfcompat "
                  f"decodes with the question encoder's: load {GENERATOR}/ to decode the generator's ids",
                  UserWarning, stacklevel=4)
    return tokenizer

