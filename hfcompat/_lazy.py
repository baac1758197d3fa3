"""Names a package exports from its modules, each module imported when one of its names is first
read (PEP 562): a process pays at start for the components it uses, not for every one the
package holds (issue 32: `import hfcompat` and a first load are as cheap as the owners')."""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, Mapping


_ABSENT = object()


def imported(where: tuple[str, str], package: str) -> Any:
    """The value `where` names, (module relative to `package`, name in it), its module imported
    on first use (a format's reader or writer, a package's component)."""
    module, name = where
    return getattr(importlib.import_module(module, package), name)


def lazy_names(package: str, modules: Mapping[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`: each name of `modules` is read from the module of
    the package named beside it, imported on first use; the value is then kept in the package."""

    def named(name: str) -> Any:
        """The value of a lazily exported name (AttributeError for any other)."""
        loaded = vars(sys.modules[package]).get(name, _ABSENT)
        if loaded is not _ABSENT:  # read before (the package's own code calls this too)
            return loaded
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = imported((f".{module}", name), package)
        setattr(sys.modules[package], name, value)
        return value

    return named
