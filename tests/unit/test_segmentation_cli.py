"""`hfcompat segment`: cut a file, score a segmentation, refuse bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from hfcompat.cli import run


def test_segment_with_a_word_list_and_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fmm with a word list prints the words; --score prints the bakeoff summary."""
    words = tmp_path / "words.txt"
    words.write_text("商务处\n女干事\n商务\n处女\n干事\n", encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("商务处女干事\n", encoding="utf-8")
    assert run(["segment", "--method", "fmm", "--dict", str(words), str(text)]) == 0
    assert capsys.readouterr().out == "商务处  女干事\n"
    gold, predicted = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold.write_text("商务处  女干事\n", encoding="utf-8")
    predicted.write_text("商务  处女  干事\n", encoding="utf-8")
    assert run(["segment", "--score", "--dict", str(words), str(gold), str(predicted)]) == 0
    out = capsys.readouterr().out
    assert "=== F MEASURE:\t0.000" in out and "=== TOTAL TRUE WORD COUNT:\t2" in out


def test_bad_method_and_score_arity(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Errors are one line on stderr with exit code 2."""
    text = tmp_path / "in.txt"
    text.write_text("好\n", encoding="utf-8")
    assert run(["segment", "--method", "nope", "--dict", str(text), str(text)]) == 2
    assert "unknown segmentation method 'nope'" in capsys.readouterr().err
    assert run(["segment", "--score", str(text)]) == 2
    assert "GOLD PRED" in capsys.readouterr().err
