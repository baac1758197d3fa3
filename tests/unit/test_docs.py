"""The docs site stays true to the code: its generated pages (the CLI reference, the conversion matrix) are what
docs/generate.py gives now, every page is in the site's navigation, and the README stays a short front page.
(The examples of the pages run in test_readme.py; CI builds the site with mkdocs --strict.)"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def generator() -> ModuleType:
    """docs/generate.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def generated_python(name: str) -> str:
    """The Python version a committed generated page was written with (its header says)."""
    match = re.search(r"\(Python (\d+\.\d+),", (DOCS / "generated" / name).read_text(encoding="utf-8"))
    assert match, f"docs/generated/{name} lacks its header"
    return match.group(1)


def skip_other_python(name: str) -> None:
    """argparse lays help out differently in other Python versions: compare on the one that wrote the page."""
    written = generated_python(name)
    if written != f"{sys.version_info.major}.{sys.version_info.minor}":
        pytest.skip(f"docs/generated/{name} was written with Python {written}")


def test_cli_reference_is_current() -> None:
    """docs/generated/cli_help.md is each command's --help as the parser prints it now."""
    skip_other_python("cli_help.md")
    current = generator().cli_reference()
    assert (DOCS / "generated" / "cli_help.md").read_text(encoding="utf-8") == current, \
        "the CLI changed: run python docs/generate.py"
    assert "### `hfcompat encode`" in current and "### `hfcompat lint`" in current


def test_conversion_matrix_is_current() -> None:
    """docs/generated/conversion_matrix.md is what the writers decide now, for every row and format."""
    pytest.importorskip("gguf", reason="the GGUF column needs the gguf package (test extra)")
    skip_other_python("conversion_matrix.md")
    current = generator().conversion_matrix()
    assert (DOCS / "generated" / "conversion_matrix.md").read_text(encoding="utf-8") == current, \
        "a writer's rule changed: run python docs/generate.py"


def test_the_matrix_can_say_no() -> None:
    """The matrix is not all "yes": a WordPiece tokenizer has no tiktoken form, with the writer's reason."""
    text = (DOCS / "generated" / "conversion_matrix.md").read_text(encoding="utf-8")
    wordpiece = next(line for line in text.splitlines() if line.startswith("| WordPiece"))
    assert "no: tiktoken holds byte-level BPE only" in wordpiece


def test_every_page_is_in_the_navigation() -> None:
    """Each docs/*.md page is listed in mkdocs.yml's nav, and each listed page exists."""
    listed = set(re.findall(r"^\s*- [^:]+: ([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                            re.M))
    pages = {path.name for path in DOCS.glob("*.md")}
    assert listed == pages


def test_the_readme_is_short() -> None:
    """The README is a front page (what it is, the two commands, one example, where the docs are)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 200
    for needed in ("make demo", "make test", "```python", "docs/"):
        assert needed in readme
