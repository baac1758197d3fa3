"""`hfcompat convert|verify|inspect|train|demo` through a real subprocess: exit codes and output."""

from __future__ import annotations

import importlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import hfcompat
from hfcompat import cli
from hfcompat.cli import demo
from tests.conftest import FIXTURES, corpus_lines, fixture_lines, shared_file
from tests.unit.test_cli import run_cli

CORPUS = FIXTURES / "multilingual.txt"
verify_module = importlib.import_module("hfcompat.tools.verify")  # the module (hfcompat.tools.verify is the function)


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
    assert result.returncode == 3
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


# ---------------------------------------------------------------- convert --check: what both files hold, atomically

T5 = "refs/t5/tokenizer.json"
SPECIALS_NOTE = "note: special tokens not added on either side: a SentencePiece model holds no post-processor"
# tokenizers and sentencepiece break this tie of T5's Unigram scores differently ('.' + '......' or the reverse)
TIED_LINE = "Hotta....... if you start a scrimmage here, I'll be greatly\r"


def botchan_corpus(path: Path, lines: int, *extra: str) -> Path:
    """The first `lines` lines of botchan (and `extra` lines) written as a corpus file."""
    texts = [line for line in corpus_lines("botchan")[:lines] if line] + list(extra)
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    return path


def test_convert_check_compares_what_a_model_can_hold(tmp_path: Path) -> None:
    """T5's tokenizer.json -> .model: the .model holds no post-processor, so neither side adds T5's
    `</s>`; every line agrees (0/N before, when only the tokenizers side added it), the report says
    so, and the file is written with nothing else beside it."""
    corpus = botchan_corpus(tmp_path / "corpus.txt", 300)
    count = sum(1 for line in corpus.read_text(encoding="utf-8").split("\n") if line)
    out = tmp_path / "out" / "spiece.model"
    result = run_cli("convert", str(shared_file(T5)), str(out), "--check", str(corpus), "--inexact")
    assert result.returncode == 0, result.stdout + result.stderr
    assert last_line(result) == f"{count}/{count} identical"
    assert SPECIALS_NOTE in result.stdout.splitlines()
    assert sorted(p.name for p in out.parent.iterdir()) == ["spiece.model"]
    result = run_cli("verify", str(out), "--reference", str(shared_file(T5)), "--corpus", str(corpus), "--json")
    report = json.loads(result.stdout[: result.stdout.rindex("}") + 1])
    assert result.returncode == 0 and (report["identical"], report["add_special_tokens"]) == (count, False)
    assert report["notes"] == [SPECIALS_NOTE.removeprefix("note: ")]


def test_convert_check_that_fails_writes_nothing(tmp_path: Path) -> None:
    """A corpus line on which the .model differs: exit 1, no DST and no temporary file left."""
    corpus = botchan_corpus(tmp_path / "corpus.txt", 20, TIED_LINE)
    out = tmp_path / "out" / "spiece.model"
    result = run_cli("convert", str(shared_file(T5)), str(out), "--check", str(corpus), "--inexact")
    assert result.returncode == 1, result.stdout + result.stderr
    assert last_line(result) == "20/21 identical"
    assert f"nothing written to {out}" in result.stdout
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize("existing", ["file", "directory"])
def test_convert_check_that_fails_leaves_an_existing_dst(existing: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture) -> None:
    """A failed check leaves an existing DST as it was (a file's bytes, a directory's files) and no
    temporary file; the same conversion that checks out replaces it."""
    corpus = botchan_corpus(tmp_path / "corpus.txt", 10)
    if existing == "file":
        out = tmp_path / "out" / "spiece.model"
        out.parent.mkdir()
        out.write_bytes(b"the old file")
    else:  # a transformers directory: checked with transformers against tokenizers
        out = tmp_path / "out"
        out.mkdir()
        (out / "config.json").write_text("{}")
        (out / "tokenizer.json").write_text("old")
    before = {p.name: p.read_bytes() for p in out.parent.rglob("*") if p.is_file()}
    source = shared_file(T5 if existing == "file" else "refs/bert-base-uncased/vocab.txt")
    side = "sentencepiece_side" if existing == "file" else "transformers_side"
    first = corpus_lines("botchan")[0]
    real = getattr(verify_module, side)

    def tampered(*args: Any) -> Any:
        built = real(*args)
        encode = built.encode
        built.encode = lambda text: [(-5, "?")] + encode(text) if text == first else encode(text)
        return built

    monkeypatch.setattr(verify_module, side, tampered)
    assert cli.run(["convert", str(source), str(out), "--check", str(corpus), "--inexact"]) == 1
    assert capsys.readouterr().out.strip().splitlines()[-1] == "9/10 identical"
    assert {p.name: p.read_bytes() for p in out.parent.rglob("*") if p.is_file()} == before
    monkeypatch.undo()
    assert cli.run(["convert", str(source), str(out), "--check", str(corpus), "--inexact"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "10/10 identical"
    if existing == "file":
        assert sorted(p.name for p in out.parent.iterdir()) == ["spiece.model"]
        assert out.read_bytes() != b"the old file"
    else:  # the directory's other files stay
        assert (out / "config.json").read_text() == "{}" and (out / "tokenizer.json").read_text() != "old"
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


def test_convert_check_moves_a_sidecar_with_its_file(tmp_path: Path) -> None:
    """A rank file and its pattern sidecar are checked together and both take their place."""
    trained = hfcompat.train(iter(fixture_lines()), model="bytelevel_bpe", vocab_size=400, show_progress=False)
    source = tmp_path / "trained.json"
    trained.save(str(source))
    out = tmp_path / "out" / "ranks.tiktoken"
    result = run_cli("convert", str(source), str(out), "--check", str(CORPUS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "note: special tokens not added on either side: a tiktoken rank file holds no post-processor" in result.stdout
    assert sorted(p.name for p in out.parent.iterdir()) == ["ranks.tiktoken", "ranks.tiktoken.json"]


@pytest.mark.parametrize("name, notes", [
    ("gpt2.gguf", ["note: the GGUF is read by hfcompat (no llama.cpp runs here; hfcompat's GGUF reader is held to "
                   "the ids llama.cpp's tests record)"]),
    ("gpt2.tiktoken", ["note: special tokens not added on either side: a tiktoken rank file holds no post-processor"]),
])
def test_convert_check_without_truncation_in_the_destination(name: str, notes: list[str], tmp_path: Path) -> None:
    """GPT-2's tokenizer.json keeps a truncation to 50 tokens, which neither a GGUF nor a rank file
    holds: the tokenizers side runs without it and says so (longer fixture lines differed before)."""
    out = tmp_path / name
    result = run_cli("convert", str(shared_file("refs/gpt2/tokenizer.json")), str(out), "--check", str(CORPUS))
    assert result.returncode == 0, result.stdout + result.stderr
    count = sum(1 for line in fixture_lines() if line)
    assert last_line(result) == f"{count}/{count} identical"
    truncation = "note: the tokenizers side runs without its truncation (max_length 50): the other file holds none"
    assert set(notes + [truncation]) <= set(result.stdout.splitlines())
    assert out.exists()
