"""hfcompat.backend: which implementation runs, how HFCOMPAT_PURE_PYTHON forces the pure one, switching."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

import hfcompat
from hfcompat import _backend


def backend_in_fresh_process(code: str = "import hfcompat; print(hfcompat.backend)", **environment: str) -> str:
    """What a new interpreter prints for `code` (hfcompat.backend by default) with these variables set."""
    env = {key: value for key, value in os.environ.items() if key != _backend.PURE_PYTHON_VARIABLE}
    done = subprocess.run([sys.executable, "-c", code],
                          env={**env, **environment}, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_environment_variable_forces_pure_python() -> None:
    """HFCOMPAT_PURE_PYTHON=1 gives "python"; unset or 0 gives the compiled core when it is built."""
    default = _backend.available()[0]
    assert backend_in_fresh_process(HFCOMPAT_PURE_PYTHON="1") == "python"
    assert backend_in_fresh_process(HFCOMPAT_PURE_PYTHON="0") == default
    assert backend_in_fresh_process() == default


def test_a_fresh_process_knows_the_core_is_built_before_importing_it() -> None:
    """`available()` and `compiled_modules()` answer for the whole installation, whatever was
    imported first: the CI guard asks them before any model has loaded."""
    built = [name for name, module in _backend.EXTENSIONS.items() if importlib.util.find_spec(module)]
    code = "from hfcompat import _backend; print(_backend.available(), _backend.compiled_modules())"
    expected = [_backend.COMPILED, _backend.PYTHON] if built else [_backend.PYTHON]
    assert backend_in_fresh_process(code) == f"{expected} {built}"


def test_use_switches_and_restores(backend: str) -> None:
    """`use` switches the process, hfcompat.backend follows, and the previous one comes back."""
    assert hfcompat.backend == _backend.backend == backend
    other = _backend.PYTHON if backend == _backend.COMPILED else backend
    with _backend.use(other):
        assert hfcompat.backend == other
        assert (_backend.bpe is None) == (other == _backend.PYTHON)
    assert hfcompat.backend == backend


def test_unknown_or_missing_backends_are_refused() -> None:
    """A misspelt name is a ValueError; the compiled one without the build is a RuntimeError."""
    with pytest.raises(ValueError, match="unknown backend"):
        _backend.select("rust")
    if _backend.COMPILED not in _backend.available():
        with pytest.raises(RuntimeError, match="not built"):
            _backend.select(_backend.COMPILED)


def test_each_compiled_twin_registers_and_follows_the_backend(backend: str) -> None:
    """Every built twin is registered under its name (all or, without a compiler, none); on the
    pure backend none is in use."""
    built = _backend.COMPILED in _backend.available()
    assert _backend.compiled_modules() == (list(_backend.MODULES) if built else [])
    for name in _backend.MODULES:
        assert (getattr(_backend, name) is None) == (backend == _backend.PYTHON)
    with pytest.raises(ValueError, match="unknown compiled module"):
        _backend.register("sentencepiece", sys)
