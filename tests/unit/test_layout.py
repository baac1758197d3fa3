"""The house rules, read off the source: no import circle, every arrow points down the layers,
no function-level import of hfcompat's own modules, and every folder says what it holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "hfcompat"
# Lowest first; a module may import its own rank and the ranks below it.
LAYERS = [
    ("hfcompat.errors", "hfcompat.encoding", "hfcompat.files", "hfcompat._backend", "hfcompat._lazy",
     "hfcompat.collector"),
    ("hfcompat.pipeline",),
    ("hfcompat.normalizers", "hfcompat.pre_tokenizers"),
    ("hfcompat.models", "hfcompat.processors", "hfcompat.decoders"),
    ("hfcompat.trainers", "hfcompat.segmentation", "hfcompat.plan"),
    ("hfcompat.specials", "hfcompat.encoder", "hfcompat.tokenizer"),
    ("hfcompat.formats",),
    ("hfcompat.tools", "hfcompat.compat"),
    ("hfcompat.cli", "hfcompat.__main__"),
    ("hfcompat",),
]
FOLDERS = ["pipeline", "normalizers", "pre_tokenizers", "models", "processors", "decoders", "trainers",
           "segmentation", "formats", "formats/sentencepiece", "formats/tiktoken", "formats/transformers",
           "tools", "tools/lint", "cli", "compat", "compat/tiktoken"]


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def rank(module: str) -> int:
    """The layer of a module: that of the longest layer prefix naming it."""
    best = (-1, -1)
    for index, layer in enumerate(LAYERS):
        for prefix in layer:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), index))
    assert best[1] >= 0, f"{module} is in no layer"
    return best[1]


def imports(module: str) -> list[tuple[str, ast.AST, bool]]:
    """(imported hfcompat module, node, at module level: in no function or class) for every import
    of `module`."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = {id(node) for scope in ast.walk(tree)
             if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
             for node in ast.walk(scope)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name in MODULES and name != module and name.startswith("hfcompat"):
                found.append((name, node, id(node) not in inner))
    return found


GRAPH = {module: sorted({target for target, _, _ in imports(module)}) for module in MODULES}


def test_the_layers_name_every_module() -> None:
    """Each module sits in exactly one known layer."""
    for module in MODULES:
        rank(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module: str) -> None:
    """A module imports only modules of its own layer or below (type-checking imports included)."""
    upward = [target for target in GRAPH[module]
              if rank(target) > rank(module) and not module.startswith(target + ".")]
    assert not upward, f"{module} (layer {rank(module)}) imports {upward} from above"


def test_no_import_circle() -> None:
    """The import graph of the package (type-checking imports included) has no cycle."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in GRAPH[module]:
            if module.startswith(target + "."):
                continue  # a package's __init__ runs first anyway; importing from it is no arrow
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in MODULES:
        if module not in state:
            visit(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_function_level_import_of_the_package(module: str) -> None:
    """hfcompat's own modules are imported at the top of a module, never inside a function."""
    inner = [target for target, node, at_top in imports(module) if not at_top
             and not _under_type_checking(MODULES[module], node)]
    assert not inner, f"{module} imports {inner} inside a function"


def _under_type_checking(path: Path, node: ast.AST) -> bool:
    """True when `node` sits in an `if TYPE_CHECKING:` block at module level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for block in tree.body:
        if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING":
            if any(getattr(child, "lineno", None) == getattr(node, "lineno", -1) for child in ast.walk(block)):
                return True
    return False


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_folder_says_what_it_holds(folder: str) -> None:
    """Each folder's __init__ starts with a docstring."""
    init = PACKAGE / folder / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring and len(docstring) > 40, f"{init} has no docstring saying what the folder holds"


def test_the_checks_catch_a_circle_and_an_upward_arrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk itself: a made-up arrow from a component up to the core is found as both."""
    graph = {**GRAPH, "hfcompat.pipeline.normalized": [*GRAPH["hfcompat.pipeline.normalized"], "hfcompat.tokenizer"]}
    monkeypatch.setitem(globals(), "GRAPH", graph)
    with pytest.raises(AssertionError, match="from above"):
        test_imports_point_down("hfcompat.pipeline.normalized")
    with pytest.raises(AssertionError, match="import circle"):
        test_no_import_circle()
