"""Build hook: compile the Cython core beside the pure-Python modules, or skip it with one warning.

pyproject.toml holds the metadata; this file only declares the extensions. Without a working C
compiler (or without Cython) the package installs as pure Python, which gives the same results,
slower; `hfcompat.backend` then says "python".
"""

from __future__ import annotations

import warnings

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Each compiled module sits beside the pure-Python module it accelerates; _hash_table and
# _char_trie hold the C structures they share (cimported through their .pxd files).
EXTENSIONS = [("hfcompat.models._hash_table", "hfcompat/models/_hash_table.pyx"),
              ("hfcompat.models._char_trie", "hfcompat/models/_char_trie.pyx"),
              ("hfcompat.models._bpe", "hfcompat/models/_bpe.pyx"),
              ("hfcompat.models._unigram", "hfcompat/models/_unigram.pyx"),
              ("hfcompat.models._wordpiece", "hfcompat/models/_wordpiece.pyx"),
              ("hfcompat.normalizers._charsmap", "hfcompat/normalizers/_charsmap.pyx"),
              ("hfcompat.pipeline._cache", "hfcompat/pipeline/_cache.pyx"),
              ("hfcompat.pipeline._pieces", "hfcompat/pipeline/_pieces.pyx"),
              ("hfcompat.trainers._bpe_trainer", "hfcompat/trainers/_bpe_trainer.pyx"),
              ("hfcompat.trainers._unigram_trainer", "hfcompat/trainers/_unigram_trainer.pyx"),
              ("hfcompat.pre_tokenizers._scan", "hfcompat/pre_tokenizers/_scan.pyx"),
              ("hfcompat.formats.tiktoken._ranks", "hfcompat/formats/tiktoken/_ranks.pyx")]
SHARED_C = ["hfcompat/models/_hash_table.pxd", "hfcompat/models/_char_trie.pxd"]
WARNING = ("hfcompat's compiled core was not built ({reason}); installing the pure-Python package, "
           "which gives identical results more slowly (hfcompat.backend == 'python')")


def warn_pure_python(reason: str) -> None:
    """Emit the one warning that says the compiled core is missing, and why (pip shows a build
    backend's warnings, while it hides the rest of the build's output)."""
    warnings.warn(WARNING.format(reason=reason), stacklevel=2)


class OptionalBuildExt(build_ext):
    """build_ext that installs the pure-Python package instead of failing when compiling fails."""

    def run(self) -> None:
        """Build every extension, or none of them with one warning."""
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any compiler failure means: no compiled core
            message = f"{type(error).__name__}: {error}"
            warn_pure_python(message if len(message) <= 100 else f"{type(error).__name__}; pip install -v shows it")
            self.extensions = []


def extensions() -> list[Extension]:
    """The Cython extensions, or none (with the warning) when Cython cannot be imported."""
    try:
        from Cython.Build import cythonize
    except ImportError as error:
        warn_pure_python(f"Cython is not installed: {error}")
        return []
    modules = [Extension(name, [source], depends=SHARED_C) for name, source in EXTENSIONS]
    return cythonize(modules, compiler_directives={"language_level": "3"}, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
