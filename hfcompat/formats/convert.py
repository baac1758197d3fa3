"""`hfcompat.convert`: load a tokenizer in one format and save it in another, exactly or not at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..tokenizer import Tokenizer
from .load import load


def convert(source: str | Path, destination: str | Path, exact: bool = True, **options: Any) -> Tokenizer:
    """Load `source` (with `load`'s options) and save it to `destination`; return the tokenizer.

    The target format follows the destination's suffix. A target that cannot represent the
    tokenizer exactly raises UnsupportedConversion and writes nothing; `exact=False` writes the
    nearest file where the target has one, with an InexactConversion warning saying what differs.
    """
    tokenizer = load(source, **options)
    tokenizer.save(str(destination), exact=exact)
    return tokenizer
