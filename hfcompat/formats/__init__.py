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
from typing import Any, Callable

from .._lazy import imported
from ..errors import FormatError
from ..tokenizer import EXTENSIONS, Tokenizer
from .convert import convert
from .load import load
from .tokenizer_json import read_tokenizer_json, tokenizer_from_json, tokenizer_to_json, write_tokenizer_json

__all__ = ["convert", "load", "save"]

# The module (in this package) and function that write each kind of destination, imported when
# one is first saved. tiktoken and tekken writers take no `exact`: what they refuse has no nearest file.
WRITERS = {
    "directory": (".transformers", "save_pretrained"),
    "tekken.json": (".tekken", "write_tekken"),
    ".model": (".sentencepiece", "write_sentencepiece"),
    ".tiktoken": (".tiktoken", "write_tiktoken"),
    ".gguf": (".gguf", "write_gguf"),
}
TAKE_EXACT = ("directory", ".json", ".model", ".gguf")


def writer(kind: str) -> Callable[..., Any]:
    """The function of WRITERS named `kind`, its module imported on first use."""
    return imported(WRITERS[kind], __package__)


def save(tokenizer: Tokenizer, path: str | Path, pretty: bool = True, exact: bool = True) -> None:
    """Write `tokenizer` in the format the file name says (*tekken.json, .json, .model, .tiktoken, .gguf);
    a path without a suffix (or an existing directory) gets a transformers directory (save_pretrained).

    A format that cannot hold the tokenizer exactly raises UnsupportedConversion; with `exact=False`
    one that can hold its nearest form (state it drops, lost_state.py) writes it and warns
    (InexactConversion) what differs."""
    suffix = Path(path).suffix
    kind = "directory" if not suffix or Path(path).is_dir() else \
        "tekken.json" if Path(path).name.endswith("tekken.json") else suffix
    options = {"exact": exact} if kind in TAKE_EXACT else {}
    if kind == ".json":
        write_tokenizer_json(tokenizer, path, pretty=pretty, exact=exact)
    elif kind in WRITERS:
        writer(kind)(tokenizer, path, **options)
    else:
        raise FormatError(f"unknown save format {suffix!r}: expected .json, .model, .tiktoken, .gguf or a directory",
                          path=str(path))


def save_pretrained(tokenizer: Tokenizer, directory: str | Path, **options: Any) -> list[str]:
    """`Tokenizer.save_pretrained`: a directory transformers' AutoTokenizer loads (formats/transformers)."""
    written: list[str] = writer("directory")(tokenizer, directory, **options)
    return written


EXTENSIONS.update(from_str=tokenizer_from_json, from_file=read_tokenizer_json, to_str=tokenizer_to_json,
                  save=save, save_pretrained=save_pretrained)
