"""Directories transformers reads and writes: save_pretrained / AutoTokenizer directories and the
classic vocab files (pretrained.py), the slow tokenizer classes' pipelines (classes.py), and the
remote-code class that runs an hfcompat tokenizer inside transformers (remote_code.py, imported
only by such a directory's loader: it needs transformers)."""

from .pretrained import (bert_tokenizer, gpt2_tokenizer, is_pretrained_directory, load_pretrained,
                         save_pretrained)

__all__ = ["bert_tokenizer", "gpt2_tokenizer", "is_pretrained_directory", "load_pretrained",
           "save_pretrained"]
