"""Readers and writers of the tokenizer file formats; `save` picks the writer by suffix."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import FormatError

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer


def save(tokenizer: "Tokenizer", path: str | Path, **options: Any) -> None:
    """Write `tokenizer` in the format the file suffix names (.json, .model)."""
    suffix = Path(path).suffix
    if suffix == ".json":
        from .tokenizer_json import write_tokenizer_json
        write_tokenizer_json(tokenizer, path, pretty=options.get("pretty", True))
        return
    if suffix == ".model":
        from .sentencepiece import write_sentencepiece
        write_sentencepiece(tokenizer, path)
        return
    raise FormatError(f"unknown save format {suffix or '(no suffix)'!r}: expected .json or .model",
                      path=str(path))
