"""The tokenizer file formats: each sub-module or folder reads files into a Tokenizer and writes a
Tokenizer back, or refuses with the reason (UnsupportedConversion).

tokenizer_json.py (HF tokenizer.json), sentencepiece/ (.model), tiktoken/ (rank files),
tekken.py (Mistral's tekken.json), gguf/ (llama.cpp), transformers/ (save_pretrained
directories and the classic vocab files); `load` picks the reader by what a path holds, `save` the writer by the file name,
`convert` does both. Importing this package registers them as Tokenizer's file methods
(`Tokenizer.save`, `from_file`, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..tokenizer import EXTENSIONS, Tokenizer
from .convert import convert
from .load import load
from .gguf import write_gguf
from .sentencepiece import write_sentencepiece
from .tekken import write_tekken
from .tiktoken import write_tiktoken
from .tokenizer_json import read_tokenizer_json, tokenizer_from_json, tokenizer_to_json, write_tokenizer_json
from .transformers import save_pretrained

__all__ = ["convert", "load", "save"]


def save(tokenizer: Tokenizer, path: str | Path, **options: Any) -> None:
    """Write `tokenizer` in the format the file name says (*tekken.json, .json, .model, .tiktoken, .gguf);
    a path without a suffix (or an existing directory) gets a transformers directory (save_pretrained)."""
    suffix = Path(path).suffix
    if not suffix or Path(path).is_dir():
        save_pretrained(tokenizer, path)
    elif Path(path).name.endswith("tekken.json"):
        write_tekken(tokenizer, path)
    elif suffix == ".json":
        write_tokenizer_json(tokenizer, path, pretty=options.get("pretty", True))
    elif suffix == ".model":
        write_sentencepiece(tokenizer, path)
    elif suffix == ".tiktoken":
        write_tiktoken(tokenizer, path)
    elif suffix == ".gguf":
        write_gguf(tokenizer, path)
    else:
        raise FormatError(f"unknown save format {suffix!r}: expected .json, .model, .tiktoken, .gguf or a directory",
                          path=str(path))


EXTENSIONS.update(from_str=tokenizer_from_json, from_file=read_tokenizer_json, to_str=tokenizer_to_json,
                  save=save, save_pretrained=save_pretrained)
