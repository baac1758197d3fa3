"""What hfcompat builds on its formats: `train` (a tokenizer of a named kind), `verify` (parity
with the official libraries), `evaluate` (+ its report: how tokenizers compare on a corpus),
`explain` (every stage of one encoding), `lint` (what is wrong or risky in a tokenizer) and `viz`
(tokens drawn over the text). Importing this
package registers `explain` as `Tokenizer.explain`."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..tokenizer import EXTENSIONS
from .explain import explain

if TYPE_CHECKING:
    from .evaluate import evaluate
    from .lint import Finding, lint
    from .train import count_words, train
    from .verify import VerifyReport, verify

__all__ = ["Finding", "VerifyReport", "count_words", "evaluate", "explain", "lint", "train", "verify"]

# Each tool's module, imported when the tool is first read (PEP 562): `hfcompat encode` needs
# explain and viz, not the trainers, the lint checks or the owner libraries verify compares with.
# A tool shares its module's name, and importing a submodule binds that name in the package: so
# `hfcompat.lint`, `hfcompat.train`, ... are the tools' stable names (the package's may be the module).
_MODULES = {"Finding": "lint", "VerifyReport": "verify", "count_words": "train", "evaluate": "evaluate",
            "lint": "lint", "train": "train", "verify": "verify"}


def __getattr__(name: str) -> Any:
    """A tool read from its own module, imported on first use."""
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_MODULES[name]}", __name__), name)


EXTENSIONS["explain"] = explain
