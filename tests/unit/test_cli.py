"""The `hfcompat` command, run as `python -m hfcompat`: output against `tokenizers`, and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tokenizers

from hfcompat import cli
from hfcompat.cli import tokens

REPO = Path(__file__).resolve().parents[2]
GPT2 = "refs/gpt2/tokenizer.json"

TEXTS = [
    "Hello, how are  you?",
    "我们明天早上九点在图书馆门口见面，别忘了带上那本蓝色封面的书。",
    "e\u0301t\u00e9 🤗 emoji\tand tabs\r\nand a CRLF",
    "<|endoftext|>a special token inside<|endoftext|>",
    # Longer than the 50 tokens GPT-2's saved truncation keeps: the file's truncation applies.
    "It was the best of times, it was the worst of times, " * 6,
]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """Run `python -m hfcompat ARGS` in a fresh interpreter; stdout/stderr decoded, "\r" kept."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run([sys.executable, "-m", "hfcompat", *args], cwd=REPO, env=env,
                            capture_output=True, timeout=300)
    result.stdout = result.stdout.decode("utf-8")
    result.stderr = result.stderr.decode("utf-8")
    return result


def ok(result: subprocess.CompletedProcess) -> str:
    """The stdout of a run that must have succeeded."""
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def gpt2(shared: Path) -> tuple[str, tokenizers.Tokenizer]:
    """GPT-2's tokenizer.json path and its official tokenizer, loaded as the file says."""
    path = shared / GPT2
    return str(path), tokenizers.Tokenizer.from_file(str(path))


# ---------------------------------------------------------------- encode


@pytest.mark.parametrize("text", TEXTS)
def test_encode_json_matches_tokenizers(gpt2, text: str) -> None:
    """--json prints the ids, tokens and offsets tokenizers gives for the same file."""
    path, oracle = gpt2
    data = json.loads(ok(run_cli("encode", path, text, "--json")))
    expected = oracle.encode(text)
    assert data["ids"] == expected.ids
    assert data["tokens"] == expected.tokens
    assert [tuple(o) for o in data["offsets"]] == expected.offsets


def test_encode_pair_and_no_special(gpt2) -> None:
    """--pair and --no-special reach encode(sequence, pair, add_special_tokens=False)."""
    path, oracle = gpt2
    first, second = "A first sentence.", "And its pair, 東京."
    data = json.loads(ok(run_cli("encode", path, first, "--pair", second, "--no-special", "--json")))
    expected = oracle.encode(first, second, add_special_tokens=False)
    assert (data["ids"], data["tokens"]) == (expected.ids, expected.tokens)
    assert [tuple(o) for o in data["offsets"]] == expected.offsets


def test_encode_plain_output(gpt2) -> None:
    """Without --json: a `tokens:` line and an `ids:` line, each a JSON list."""
    path, oracle = gpt2
    text = "Plain output, 你好"
    lines = ok(run_cli("encode", path, text)).splitlines()
    assert [line.split(":", 1)[0] for line in lines] == ["tokens", "ids"]
    expected = oracle.encode(text)
    assert json.loads(lines[0].split(":", 1)[1]) == expected.tokens
    assert json.loads(lines[1].split(":", 1)[1]) == expected.ids


def test_encode_text_starting_with_a_dash(gpt2) -> None:
    """After `--` a text may look like an option."""
    path, oracle = gpt2
    data = json.loads(ok(run_cli("encode", path, "--json", "--", "-5 degrees --no-special")))
    assert data["ids"] == oracle.encode("-5 degrees --no-special").ids


# ---------------------------------------------------------------- decode


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("keep_special", [False, True])
def test_decode_matches_tokenizers(gpt2, text: str, keep_special: bool) -> None:
    """decode prints tokenizers' decode of the same ids, with or without the special tokens."""
    path, oracle = gpt2
    ids = oracle.encode(text).ids
    flags = ["--keep-special"] if keep_special else []
    out = ok(run_cli("decode", path, *map(str, ids), *flags))
    expected = oracle.decode(ids, skip_special_tokens=not keep_special)
    assert out == expected + "\n"


# ---------------------------------------------------------------- inspect


def _component_type(oracle_json: dict, name: str) -> str | None:
    """The "type" of one component in tokenizers' own tokenizer.json, None when absent."""
    component = oracle_json.get(name)
    return None if component is None else component["type"]


def test_inspect_json_matches_tokenizers(gpt2) -> None:
    """Model type, vocabulary sizes, component types and added tokens as tokenizers sees them."""
    path, oracle = gpt2
    data = json.loads(ok(run_cli("inspect", path, "--json")))
    saved = json.loads(oracle.to_str())
    assert data["model"] == saved["model"]["type"]
    assert data["vocab_size"] == oracle.get_vocab_size(with_added_tokens=False)
    assert data["vocab_size_with_added"] == oracle.get_vocab_size(with_added_tokens=True)
    for name in ("normalizer", "pre_tokenizer", "post_processor", "decoder"):
        assert data[name] == (_component_type(saved, name) or "none"), name
    added = sorted(oracle.get_added_tokens_decoder().items())
    assert data["added_tokens"] == len(added)
    assert data["special_tokens"] == sum(1 for _, t in added if t.special)
    assert [(t["id"], t["content"], t["special"]) for t in data["first_added_tokens"]] == [
        (i, t.content, t.special) for i, t in added[: tokens.ADDED_SHOWN]
    ]


def test_inspect_plain_output(gpt2) -> None:
    """The text form names the model, the vocabulary size and the added token."""
    path, oracle = gpt2
    out = ok(run_cli("inspect", path))
    assert ["model:", "BPE"] in [line.split() for line in out.splitlines()]
    assert str(oracle.get_vocab_size(with_added_tokens=False)) in out
    assert "'<|endoftext|>'=50256 (special)" in out


def test_inspect_names_sequence_members(shared: Path) -> None:
    """A Sequence is shown with its members, in tokenizers' order (CLIP has two Sequences)."""
    path = shared / "refs" / "clip" / "tokenizer.json"
    data = json.loads(ok(run_cli("inspect", str(path), "--json")))
    saved = json.loads(tokenizers.Tokenizer.from_file(str(path)).to_str())
    normalizers = [n["type"] for n in saved["normalizer"]["normalizers"]]
    pre_tokenizers = [p["type"] for p in saved["pre_tokenizer"]["pretokenizers"]]
    assert data["normalizer"] == f"Sequence[{', '.join(normalizers)}]"
    assert data["pre_tokenizer"] == f"Sequence[{', '.join(pre_tokenizers)}]"


# ---------------------------------------------------------------- bad input


def bad_files(tmp_path: Path) -> dict[str, Path]:
    """A missing file and files that are not valid tokenizer.json."""
    files = {
        "missing": tmp_path / "nowhere" / "tokenizer.json",
        "malformed": tmp_path / "malformed" / "tokenizer.json",
        "empty": tmp_path / "empty" / "tokenizer.json",
        "unknown model": tmp_path / "unknown" / "tokenizer.json",
    }
    contents = {
        "malformed": '{"version": "1.0", "model": {"type": "BPE", ',
        "empty": "",
        "unknown model": json.dumps({"version": "1.0", "model": {"type": "NoSuchModel"}}),
    }
    for name, text in contents.items():
        files[name].parent.mkdir(parents=True)
        files[name].write_text(text, encoding="utf-8")
    return files


@pytest.mark.parametrize("kind", ["missing", "malformed", "empty", "unknown model"])
@pytest.mark.parametrize("command", [["encode", "{}", "hello"], ["decode", "{}", "1", "2"], ["inspect", "{}"]])
def test_bad_input_is_one_error_line(tmp_path: Path, kind: str, command: list[str]) -> None:
    """Exit code 3, one line "hfcompat: error: ..." naming the file, nothing on stdout, no traceback."""
    path = bad_files(tmp_path)[kind]
    result = run_cli(*[arg.format(path) for arg in command])
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("hfcompat: error: ")
    assert str(path) in lines[0]


def test_malformed_json_error_says_where(tmp_path: Path) -> None:
    """The message of a JSON syntax error carries its line and column."""
    path = bad_files(tmp_path)["malformed"]
    result = run_cli("inspect", str(path))
    assert "not valid JSON" in result.stderr and "line 1 column" in result.stderr


def test_main_exits_with_the_code(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """main() itself exits (the console script relies on it) with 3 on a FormatError."""
    with pytest.raises(SystemExit) as exited:
        cli.main(["inspect", str(tmp_path / "missing.json")])
    assert exited.value.code == 3
    assert capsys.readouterr().err.startswith("hfcompat: error: ")


def test_usage_errors_exit_2() -> None:
    """argparse's own errors (a non-integer id, no command) also exit with 2."""
    assert run_cli("decode", "tokenizer.json", "twelve").returncode == 2
    assert run_cli().returncode == 2


# ---------------------------------------------------------------- demo


@pytest.mark.slow
def test_demo_reports_full_parity(shared: Path) -> None:
    """The demo compares every reference it finds and ends with "demo: N/N identical"."""
    result = run_cli("demo")
    out = result.stdout
    assert result.returncode == 0, out[-3000:] + result.stderr
    last = out.strip().splitlines()[-1]
    assert last.startswith("demo: ") and last.endswith(" identical"), last
    identical, total = last.split()[1].split("/")
    assert identical == total and int(total) > 0
    for name in ("gpt2", "bert-base-uncased", "t5"):
        assert name in out
