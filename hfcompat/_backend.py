"""Which implementation runs the hot loops: the compiled core (Cython) or the pure-Python reference.

The pure-Python modules are the reference and always work. `pip install` compiles the core
beside them when a C compiler is there (`hfcompat/models/_bpe.pyx`, `_unigram.pyx`,
`_wordpiece.pyx`, `hfcompat/normalizers/_charsmap.pyx`, `hfcompat/pipeline/_pieces.pyx`,
`hfcompat/trainers/_bpe_trainer.pyx`, `_unigram_trainer.pyx`,
`hfcompat/pre_tokenizers/_scan.pyx`); the modules they accelerate then call
them for the cases they cover and give identical results. `HFCOMPAT_PURE_PYTHON=1` in the
environment forces the pure-Python backend; `hfcompat.backend` says which one is in use.

This module finds the compiled twins (`load`, by the dotted names in EXTENSIONS: they are C
leaves that import no Python module of hfcompat, only the C structures they share), so the
answer to "is the core built?" never depends on which modules happened to be imported first. A
module that a twin accelerates calls `load(name)` when it imports, and reads the attribute here
(`bpe`, `unigram`, `wordpiece`, `charsmap`, `cache`, `pieces`, `bpe_trainer`, `unigram_trainer`,
`scan`, `ranks`: the compiled module, or None) when it runs, so `use` switches a whole process at
once; it is meant for tests and benchmarks that compare the two backends.
"""

from __future__ import annotations

import importlib
import os
import sys
from contextlib import contextmanager
from types import ModuleType
from typing import Iterator

PURE_PYTHON_VARIABLE = "HFCOMPAT_PURE_PYTHON"
COMPILED = "compiled"
PYTHON = "python"


def pure_python_forced() -> bool:
    """True when the environment asks for the pure-Python backend (HFCOMPAT_PURE_PYTHON set, not 0)."""
    return os.environ.get(PURE_PYTHON_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


# The modules that have a compiled twin, by the name they read it under, and where it is built.
EXTENSIONS = {
    "bpe": "hfcompat.models._bpe",
    "unigram": "hfcompat.models._unigram",
    "wordpiece": "hfcompat.models._wordpiece",
    "charsmap": "hfcompat.normalizers._charsmap",
    "cache": "hfcompat.pipeline._cache",
    "pieces": "hfcompat.pipeline._pieces",
    "bpe_trainer": "hfcompat.trainers._bpe_trainer",
    "unigram_trainer": "hfcompat.trainers._unigram_trainer",
    "scan": "hfcompat.pre_tokenizers._scan",
    "ranks": "hfcompat.formats.tiktoken._ranks",
}
MODULES = tuple(EXTENSIONS)

# The compiled modules registered so far (a name is missing when its twin was not built), and what
# the models call: per name, that module on the compiled backend, None on the pure one.
_compiled: dict[str, ModuleType] = {}
bpe: ModuleType | None = None
unigram: ModuleType | None = None
wordpiece: ModuleType | None = None
charsmap: ModuleType | None = None
cache: ModuleType | None = None
pieces: ModuleType | None = None
bpe_trainer: ModuleType | None = None
unigram_trainer: ModuleType | None = None
scan: ModuleType | None = None
ranks: ModuleType | None = None
backend: str = PYTHON


def register(name: str, module: ModuleType) -> None:
    """Called when the compiled twin `name` (one of MODULES) imports: the compiled backend is
    then available, and in use unless the environment forces pure Python (or the process
    already chose the pure one)."""
    if name not in MODULES:
        raise ValueError(f"unknown compiled module {name!r}: expected one of {MODULES}")
    first = not _compiled
    _compiled[name] = module
    if backend == COMPILED:
        globals()[name] = module
    elif first and not pure_python_forced():
        select(COMPILED)


def load(name: str) -> ModuleType | None:
    """Import and register the compiled twin `name` (one of MODULES); None when it was not built."""
    if name in _compiled:
        return _compiled[name]
    if name not in EXTENSIONS:
        raise ValueError(f"unknown compiled module {name!r}: expected one of {MODULES}")
    try:
        module = importlib.import_module(EXTENSIONS[name])
    except ImportError:  # not built (no compiler at install time): the pure-Python reference runs
        return None
    register(name, module)
    return module


def load_all() -> None:
    """Register every compiled twin that was built, so the answers below hold for the whole core."""
    for name in MODULES:
        load(name)


def available() -> list[str]:
    """The backends this installation can run: "python" always, "compiled" when it was built."""
    load_all()
    return [COMPILED, PYTHON] if _compiled else [PYTHON]


def compiled_modules() -> list[str]:
    """The names (of MODULES) whose compiled twin was built."""
    load_all()
    return [name for name in MODULES if name in _compiled]


def select(name: str) -> str:
    """Make `name` ("compiled" or "python") the backend of this process; returns the previous one.

    The package's `hfcompat.backend` follows. Results cached before the switch stay cached: a
    comparison of the backends starts from freshly loaded tokenizers.
    """
    global backend
    if name not in (COMPILED, PYTHON):
        raise ValueError(f"unknown backend {name!r}: expected {COMPILED!r} or {PYTHON!r}")
    if name == COMPILED and not _compiled and COMPILED not in available():  # twins not loaded yet load later
        raise RuntimeError("the compiled core is not built in this installation "
                           "(reinstall with a C compiler: pip install .)")
    previous = backend
    for module in MODULES:
        globals()[module] = _compiled.get(module) if name == COMPILED else None
    backend = name
    package = sys.modules.get(__package__)
    if package is not None:
        setattr(package, "backend", name)  # noqa: B010 - a module attribute mypy cannot see
    return previous


@contextmanager
def use(name: str) -> Iterator[str]:
    """Run the block on backend `name`, then go back to the one before."""
    previous = select(name)
    try:
        yield name
    finally:
        select(previous)
