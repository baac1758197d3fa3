"""`hfcompat convert|verify|inspect|train|demo` through a real subprocess: exit codes and output."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hfcompat import cli
from hfcompat.cli import demo
from tests.conftest import FIXTURES, fixture_lines, shared_file
from tests.unit.test_cli import run_cli

CORPUS = FIXTURES / "multilingual.txt"


def last_line(result: subprocess.CompletedProcess) -> str:
    """The last line printed on stdout."""
    return result.stdout.strip().splitlines()[-1]


def test_verify_identical_exits_0() -> None:
    """hfcompat against tokenizers on a reference file: exit 0, last line N/N identical."""
    result = run_cli("verify", str(shared_file("refs/bert-base-uncased/vocab.txt")), "--corpus", str(CORPUS))
    assert result.returncode == 0, result.stdout + result.stderr
    count = sum(1 for line in fixture_lines() if line)
    assert last_line(result) == f"{count}/{count} identical"
    assert "tokenizers 0.23.3" in result.stdout


def test_verify_catches_a_tampered_file(tmp_path: Path) -> None:
    """Two vocabulary ids swapped in a converted file: exit 1 and the first divergence is named."""
    original = shared_file("refs/bert-base-uncased/vocab.txt")
    converted = tmp_path / "tokenizer.json"
    assert run_cli("convert", str(original), str(converted)).returncode == 0
    data = json.loads(converted.read_text(encoding="utf-8"))
    vocab = data["model"]["vocab"]
    vocab["the"], vocab["of"] = vocab["of"], vocab["the"]
    converted.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "corpus.txt").write_text("a cat\nthe end of the story\n", encoding="utf-8")
    result = run_cli("verify", str(converted), "--reference", str(original), "--corpus", str(tmp_path / "corpus.txt"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert last_line(result) == "1/2 identical"
    assert "text 'the end of the story': token 1 differs" in result.stdout
    assert f"'the'={vocab['the']}" in result.stdout and f"'the'={vocab['of']}" in result.stdout


def test_verify_json_report() -> None:
    """--json prints the report (counts, throughput of both sides) before the closing line."""
    result = run_cli("verify", str(shared_file("refs/bert-base-uncased/vocab.txt")), "--corpus", str(CORPUS),
                     "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout[: result.stdout.rindex("}") + 1])
    assert report["mismatches"] == 0 and report["total"] == report["identical"] > 0
    assert report["subject_mb_per_s"] > 0 and report["reference_mb_per_s"] > 0


def test_convert_to_directory_with_check(tmp_path: Path) -> None:
    """convert into a directory (AutoTokenizer's), then --check it with transformers against the original."""
    out = tmp_path / "bert"
    result = run_cli("convert", str(shared_file("refs/bert-base-uncased/vocab.txt")), str(out), "--check", str(CORPUS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert last_line(result).endswith(" identical")
    assert (out / "tokenizer.json").exists() and (out / "tokenizer_config.json").exists()


def test_convert_impossible_pair_leaves_no_file(tmp_path: Path) -> None:
    """WordPiece -> .tiktoken is refused with one error line that gives the reason; nothing is written."""
    out = tmp_path / "bert.tiktoken"
    result = run_cli("convert", str(shared_file("refs/bert-base-uncased/vocab.txt")), str(out))
    assert result.returncode == 2
    assert result.stderr.startswith("hfcompat: error: ") and "Traceback" not in result.stderr
    assert ".tiktoken" in result.stderr or "WordPiece" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_inspect_directory_names_format_and_targets(tmp_path: Path) -> None:
    """inspect on a transformers directory: its format, and which targets can hold it."""
    assert run_cli("convert", str(shared_file("refs/bert-base-uncased/vocab.txt")), str(tmp_path / "d")).returncode == 0
    data = json.loads(run_cli("inspect", str(tmp_path / "d"), "--json").stdout)
    assert data["format"] == "transformers directory (PreTrainedTokenizerFast)"
    assert data["converts_to"]["tokenizer.json"] is True
    assert data["converts_to"]["transformers directory"] is True
    assert data["converts_to"]["tiktoken"] is not True


def test_train_command(tmp_path: Path) -> None:
    """train writes the trained tokenizer."""
    out = tmp_path / "trained.json"
    result = run_cli("train", str(CORPUS), "-o", str(out), "--model", "bpe", "--vocab-size", "300")
    assert result.returncode == 0, result.stderr
    assert out.exists()


def test_demo_training_table(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """The demo's training part: each algorithm trained by hfcompat.train, saved in every format
    that holds it and verified in that format's library; formats that cannot hold it show "-"."""
    count = demo._demo_training(list(fixture_lines()))
    out = capsys.readouterr().out
    assert count.compared > 0 and count.identical == count.compared and not count.failed, out
    for algorithm in demo.DEMO_ALGORITHMS:
        assert algorithm in out
