"""Readers and writers of the tokenizer file formats; `save` picks the writer by suffix."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import FormatError

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer


def save(tokenizer: "Tokenizer", path: str | Path, **options: Any) -> None:
    """Write `tokenizer` in the format the file suffix names (.json, .model, .tiktoken); a path
    without a suffix (or an existing directory) gets a transformers directory (save_pretrained)."""
    suffix = Path(path).suffix
    if not suffix or Path(path).is_dir():
        from .transformers import save_pretrained
        save_pretrained(tokenizer, path)
        return
    if suffix == ".json":
        from .tokenizer_json import write_tokenizer_json
        write_tokenizer_json(tokenizer, path, pretty=options.get("pretty", True))
        return
    if suffix == ".model":
        from .sentencepiece import write_sentencepiece
        write_sentencepiece(tokenizer, path)
        return
    if suffix == ".tiktoken":
        from .tiktoken import write_tiktoken
        write_tiktoken(tokenizer, path)
        return
    raise FormatError(f"unknown save format {suffix!r}: expected .json, .model, .tiktoken or a directory",
                      path=str(path))
