"""SentencePiece `.model` files: the ModelProto schema (schema.py), reading one into a Tokenizer
(read.py) and writing a Tokenizer back as one, or refusing with the reason (write.py)."""

from typing import TYPE_CHECKING

from ..._lazy import lazy_names

if TYPE_CHECKING:
    from .read import parse_model, pipeline_from_proto, read_model, read_sentencepiece, tokenizer_from_proto
    from .write import proto_from_tokenizer, write_sentencepiece

# Each name's module, imported on first use: reading a .model loads no writer.
__getattr__ = lazy_names(__name__, {
    "parse_model": "read", "pipeline_from_proto": "read", "read_model": "read", "read_sentencepiece": "read",
    "tokenizer_from_proto": "read", "proto_from_tokenizer": "write", "write_sentencepiece": "write"})

__all__ = ["parse_model", "pipeline_from_proto", "proto_from_tokenizer", "read_model", "read_sentencepiece",
           "tokenizer_from_proto", "write_sentencepiece"]
