"""The exception types users catch."""

from __future__ import annotations

import importlib
from types import ModuleType


class HfcompatError(Exception):
    """Base class of every error hfcompat raises on purpose."""


class FormatError(HfcompatError, ValueError):
    """A file (or a component inside it) is unreadable or malformed.

    `path` names the file, `field` the JSON path or field that is wrong.
    """

    def __init__(self, message: str, *, path: str | None = None, field: str | None = None):
        self.message = message
        self.path = path
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.path:
            where.append(str(self.path))
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{': '.join(where)}: {self.message}" if where else self.message

    def at(self, *, path: str | None = None, field: str | None = None) -> "FormatError":
        """Return a copy located in `path` and/or prefixed with the parent `field`."""
        new_field = self.field
        if field:
            new_field = f"{field}.{self.field}" if self.field else field
        return FormatError(self.message, path=path or self.path, field=new_field)


class UnsupportedConversion(HfcompatError):
    """The target format cannot represent this tokenizer exactly."""


class InexactConversion(UserWarning):
    """Warned when a conversion asked not to be exact (`exact=False`, `--inexact`) writes a file that
    runs differently from the tokenizer; the message says what differs."""


class SpecialTokenError(HfcompatError, ValueError):
    """The input holds a special token that the caller did not allow."""


class TokenizationError(HfcompatError, ValueError):
    """The tokenizer cannot encode this input (e.g. an unknown char with no unk token)."""


class PipelineMismatch(HfcompatError, ValueError):
    """Word counts of one pipeline given where another's are needed (added to them, or trained
    with another setup): the message says what differs."""


class MissingFile(HfcompatError, FileNotFoundError):
    """A file that hfcompat never downloads is not where it looks: the message says which file
    and where to put it."""


class MissingDependency(HfcompatError, ImportError):
    """An optional extra a format needs is not installed; the message says what to install."""


def import_optional(module: str, extra: str, purpose: str) -> ModuleType:
    """The optional module `module`, imported when first needed (heavy extras stay out of
    `import hfcompat`), or MissingDependency saying that `purpose` needs it and which extra
    provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependency(f"{purpose} needs the {module.split('.')[0]} package: "
                                f"pip install 'hfcompat[{extra}]'") from None
