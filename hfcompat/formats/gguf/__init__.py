"""GGUF files (llama.cpp): reading the tokenizer of any GGUF (read.py) and writing a vocab-only
GGUF that llama.cpp loads (write.py), through the `gguf` package (the extra hfcompat[gguf]);
pre_tokenizers.json is the table of the `tokenizer.ggml.pre` names and their pipelines."""

from .read import read_gguf
from .write import write_gguf

__all__ = ["read_gguf", "write_gguf"]
