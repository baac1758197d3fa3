"""Every Python block of the README runs as written (from the repository root, as a script, as a
user would: `__name__` is "__main__", so a block may guard what only a script's main part does,
such as starting Dask's worker processes), and a `print(...)  # value` line whose comment is a Python
literal prints exactly that value (the README shows what the code prints)."""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


PRINT_SHOWING = re.compile(r"^\s*print\(.*\)\s+#\s*(.+?)\s*$")


def shown_outputs(code: str) -> dict[int, tuple[str, Any]]:
    """Line number -> (comment, its value) of each `print(...)  # literal` line of a block."""
    found = {}
    for number, line in enumerate(code.split("\n"), 1):
        match = PRINT_SHOWING.match(line)
        if match is None:
            continue
        try:
            found[number] = (match.group(1), ast.literal_eval(match.group(1)))
        except (ValueError, SyntaxError):  # prose, not a shown value
            continue
    return found


def test_the_readme_has_python_blocks() -> None:
    """The blocks are found (a changed fence would otherwise pass every case silently), and so are the values
    they show."""
    assert len(BLOCKS) >= 8
    assert sum(len(shown_outputs(code)) for code in BLOCKS) >= 15


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Block `index` runs without error and prints something."""
    code = BLOCKS[index]
    if "../shared" in code and not (SHARED / "refs").is_dir():
        pytest.skip(f"README block {index + 1} reads ../shared, which is not beside the repository")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    name = f"README.md block {index + 1}"
    by_line: dict[int, str] = {}

    def recording_print(*args: Any, sep: str = " ", end: str = "\n", file: Any = None, flush: bool = False) -> None:
        """print, also noting the first text each line of the block prints."""
        caller = sys._getframe(1)
        if caller.f_code.co_filename == name:
            by_line.setdefault(caller.f_lineno, sep.join(map(str, args)))
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, name, "exec"), {"__name__": "__main__", "print": recording_print})
    assert printed.getvalue().strip(), f"README block {index + 1} printed nothing"
    for line, (comment, value) in shown_outputs(code).items():
        assert by_line.get(line) in (comment, str(value)), f"{name}, line {line}: shows {comment}"
