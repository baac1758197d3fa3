"""`tiktoken.registry`: encodings by name, found as tiktoken finds them.

Every module of the `tiktoken_ext` namespace package is a plugin whose ENCODING_CONSTRUCTORS
maps names to functions returning what `Encoding` takes; an encoding is built once, on first
use, and kept. The plugin tiktoken itself ships, `tiktoken_ext.openai_public`, is always the
facade's own (openai_public.py), whether or not tiktoken is installed: the real one would load
its rank files through the real tiktoken.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from functools import lru_cache
from types import ModuleType
from typing import Any, Callable, Sequence

try:
    import tiktoken_ext
except ImportError:
    tiktoken_ext = None

from . import core, openai_public
from .core import ENCODINGS, Encoding

__all__ = ["ENCODINGS", "ENCODING_CONSTRUCTORS", "get_encoding", "list_encoding_names"]

VERSION = "0.14.0"  # the tiktoken release whose behaviour the facade gives
OPENAI_PUBLIC = "tiktoken_ext.openai_public"

_lock = threading.RLock()
ENCODING_CONSTRUCTORS: dict[str, Callable[[], dict[str, Any]]] | None = None


@lru_cache
def _available_plugin_modules() -> Sequence[str]:
    """The plugin modules: those of the tiktoken_ext namespace, and always openai_public."""
    found = [name for _, name, _ in pkgutil.iter_modules(tiktoken_ext.__path__, "tiktoken_ext.")] \
        if tiktoken_ext is not None else []
    return found if OPENAI_PUBLIC in found else [*found, OPENAI_PUBLIC]


def _plugin(name: str) -> ModuleType:
    """A plugin module (openai_public: the facade's own)."""
    return openai_public if name == OPENAI_PUBLIC else importlib.import_module(name)


def _find_constructors() -> None:
    """Fill ENCODING_CONSTRUCTORS from the plugins, once; a faulty plugin raises every time."""
    global ENCODING_CONSTRUCTORS
    with _lock:
        if ENCODING_CONSTRUCTORS is not None:
            return
        found: dict[str, Callable[[], dict[str, Any]]] = {}
        for module_name in _available_plugin_modules():
            constructors = getattr(_plugin(module_name), "ENCODING_CONSTRUCTORS", None)
            if constructors is None:
                raise ValueError(f"tiktoken plugin {module_name} does not define ENCODING_CONSTRUCTORS")
            for name, constructor in constructors.items():
                if name in found:
                    raise ValueError(f"Duplicate encoding name {name} in tiktoken plugin {module_name}")
                found[name] = constructor
        ENCODING_CONSTRUCTORS = found


def get_encoding(encoding_name: str) -> Encoding:
    """The Encoding of this name, built on first use (ValueError for a name no plugin has)."""
    if not isinstance(encoding_name, str):
        raise ValueError(f"Expected a string in get_encoding, got {type(encoding_name)}")
    found = ENCODINGS.get(encoding_name)
    if found is not None:
        return found
    with _lock:
        if encoding_name in ENCODINGS:
            return ENCODINGS[encoding_name]
        _find_constructors()
        assert ENCODING_CONSTRUCTORS is not None
        if encoding_name not in ENCODING_CONSTRUCTORS:
            raise ValueError(f"Unknown encoding {encoding_name}.\nPlugins found: {_available_plugin_modules()}\n"
                             f"tiktoken version: {VERSION} (hfcompat.compat.tiktoken)")
        encoding = Encoding(**ENCODING_CONSTRUCTORS[encoding_name]())
        ENCODINGS[encoding_name] = encoding
        return encoding


def list_encoding_names() -> list[str]:
    """The names of every encoding the plugins offer."""
    with _lock:
        _find_constructors()
        assert ENCODING_CONSTRUCTORS is not None
        return list(ENCODING_CONSTRUCTORS)


core.registered_encoding = get_encoding  # an encoding pickled by name comes back through it
