"""SentencePiece `.model` files: the ModelProto schema (schema.py), reading one into a Tokenizer
(read.py) and writing a Tokenizer back as one, or refusing with the reason (write.py)."""

from .read import parse_model, pipeline_from_proto, read_model, read_sentencepiece, tokenizer_from_proto
from .write import proto_from_tokenizer, write_sentencepiece

__all__ = ["parse_model", "pipeline_from_proto", "proto_from_tokenizer", "read_model", "read_sentencepiece",
           "tokenizer_from_proto", "write_sentencepiece"]
