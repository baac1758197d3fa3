"""Segmentation parity with jieba 0.42.1 (both HMM settings) and the bakeoff scores on SIGHAN 2005."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from hfcompat.segmentation import Dictionary, Segmenter, score
from hfcompat.segmentation.scoring import words_of

from conftest import corpus_sample, fixture_texts, read_lines, shared_file

jieba = pytest.importorskip("jieba")
jieba.setLogLevel(60)
pytestmark = pytest.mark.conformance

ICWB2 = "corpora/icwb2"
FULL_FILES = ["pku_test.utf8", "msr_test.utf8"]
SAMPLED = ["wagahaiwa", "botchan", "taylorswift"]


@lru_cache(maxsize=None)
def segmenter(hmm: bool) -> Segmenter:
    """The "dag" segmenter on jieba's own dictionary, with or without the HMM."""
    return Segmenter(Dictionary.from_jieba(), method="dag", hmm=hmm)


def mismatches(lines: list[str], hmm: bool) -> list[tuple[str, list[str], list[str]]]:
    """The lines where our words differ from jieba.lcut's."""
    ours = segmenter(hmm)
    found = []
    for line in lines:
        expected = jieba.lcut(line, HMM=hmm)
        got = ours.cut(line)
        if got != expected:
            found.append((line, got, expected))
    return found


@pytest.mark.parametrize("hmm", [False, True], ids=["no-hmm", "hmm"])
@pytest.mark.parametrize("name", FULL_FILES)
def test_jieba_parity_on_sighan_test_text(name: str, hmm: bool) -> None:
    """Every line of the PKU and MSR test sets (CR LF ends kept) cuts as jieba cuts it."""
    text = shared_file(f"{ICWB2}/{name}").read_bytes().decode("utf-8")
    lines = text.splitlines(keepends=True)
    assert len(lines) > 1900
    assert mismatches(lines, hmm)[:3] == []


@pytest.mark.parametrize("hmm", [False, True], ids=["no-hmm", "hmm"])
@pytest.mark.parametrize("name", SAMPLED)
def test_jieba_parity_on_other_corpora(name: str, hmm: bool) -> None:
    """Japanese and English text: kana, Latin runs, digits, punctuation and spaces as jieba."""
    assert mismatches(corpus_sample(name), hmm)[:3] == []


@pytest.mark.parametrize("hmm", [False, True], ids=["no-hmm", "hmm"])
def test_jieba_parity_on_fixture(hmm: bool) -> None:
    """The multilingual fixture, lines and multi-line blocks."""
    assert mismatches(fixture_texts(), hmm)[:3] == []


PIECES = ["中国", "人民", "研究生命", "北京大学", "杭研", "的", "了", "是", "我", "他", "来到", "大厦",
          "AI", "c#", "C++", "3.14", "2012", "50%", "a.b", "x_y", "-", "&", "#", "%", ".", "+",
          " ", "  ", "\t", "\n", "\r\n", "\r", "\u3000", "\u00a0", "，", "。", "１２", "ｅ", "カタカナ",
          "é", "🤗", "\u9fd5", "\u9fd6", "\u4e00", "\u3400"]
random_text = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=12).map("".join)


@given(random_text)
def test_jieba_parity_on_random_text(text: str) -> None:
    """Random mixes of Han, ASCII runs, digits, punctuation, whitespace and other scripts."""
    for hmm in (False, True):
        assert segmenter(hmm).cut(text) == jieba.lcut(text, HMM=hmm)


@given(st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), max_size=30))
def test_jieba_parity_on_random_han(text: str) -> None:
    """Random Han strings: unknown words go through the HMM exactly as in jieba."""
    for hmm in (False, True):
        assert segmenter(hmm).cut(text) == jieba.lcut(text, HMM=hmm)


# ----- SIGHAN scores --------------------------------------------------------------------------

@lru_cache(maxsize=None)
def bakeoff(corpus: str) -> tuple[list[str], list[str], list[str]]:
    """(training words, raw test lines, gold lines) of one bakeoff corpus."""
    words = [w.strip() for w in read_lines(shared_file(f"{ICWB2}/{corpus}_training_words.utf8")) if w.strip()]
    raw = read_lines(shared_file(f"{ICWB2}/{corpus}_test.utf8"))
    gold = read_lines(shared_file(f"{ICWB2}/{corpus}_test_gold.utf8"))
    return words, raw, gold


@lru_cache(maxsize=None)
def predicted(corpus: str, method: str) -> list[str]:
    """The test set cut by `method` with the training word list, words joined by spaces."""
    words, raw, _ = bakeoff(corpus)
    cutter = Segmenter(Dictionary.from_words(words), method=method)
    return [" ".join(w for w in cutter.cut(line) if not w.isspace()) for line in raw]


# The bakeoff's own baseline (scripts/mwseg.pl on the GB files) cuts the test sets into these
# many words and its scripts/score reports these F1; the published baseline table says 0.869/0.933.
MWSEG_WORDS = {"pku": 112281, "msr": 111480}
MWSEG_F1 = {"pku": 0.874, "msr": 0.937}
PUBLISHED_F1 = {"pku": 0.869, "msr": 0.933}


@pytest.mark.parametrize("corpus", ["pku", "msr"])
def test_forward_matching_is_the_bakeoff_baseline(corpus: str) -> None:
    """fmm with the training word list: the bakeoff baseline's word count and score."""
    words, _, gold = bakeoff(corpus)
    result = score(gold, predicted(corpus, "fmm"), words)
    assert result.gold_words == {"pku": 104372, "msr": 106873}[corpus]  # the bakeoff's TRUE WORD COUNT
    assert result.predicted_words == MWSEG_WORDS[corpus]
    assert f"{result.f1:.3f}" == f"{MWSEG_F1[corpus]:.3f}"
    assert abs(result.f1 - PUBLISHED_F1[corpus]) < 0.005


GOLD_WORD = regex.compile(r"(\S+)\s", regex.ASCII)  # a row that starts with a gold word
GOLD_MISSED = regex.compile(r"\S+\s.*\s[|<>]\s", regex.ASCII)
TEST_WRONG = regex.compile(r"\s[|<>]\s.*\S$", regex.ASCII)


def diff_counts(gold: list[str], test: list[str], dictionary: set[str]) -> tuple[int, int, int, int]:
    """(correct gold, correct test, OOV words, OOV found) read off GNU `diff -y`, the bakeoff's way."""
    with tempfile.TemporaryDirectory() as tmp:
        left, right = Path(tmp, "gold"), Path(tmp, "test")
        left.write_text("".join(w + "\n" for w in gold), encoding="utf-8")
        right.write_text("".join(w + "\n" for w in test), encoding="utf-8")
        output = subprocess.run(["diff", "--minimal", "-y", str(left), str(right)],
                                capture_output=True, text=True, encoding="utf-8").stdout
    gold_missed = test_wrong = oov = oov_missed = 0
    for row in output.splitlines(keepends=True):
        first = GOLD_WORD.match(row)
        if first:
            unknown = first.group(1) not in dictionary
            oov += unknown
            if GOLD_MISSED.match(row):
                gold_missed += 1
                oov_missed += unknown
        if TEST_WRONG.search(row.rstrip("\n")):
            test_wrong += 1
    return len(gold) - gold_missed, len(test) - test_wrong, oov, oov - oov_missed


@pytest.mark.skipif(shutil.which("diff") is None, reason="GNU diff is not installed")
@pytest.mark.parametrize("corpus", ["pku", "msr"])
def test_scores_equal_the_diff_alignment_of_the_bakeoff_script(corpus: str) -> None:
    """Per line, our counts equal those read off `diff -y`, as the bakeoff's script reads them.

    `--minimal`: GNU diff's default speed heuristics sometimes miss a match (a repeated "，"),
    which makes the bakeoff's own script count a rare word less; we score the true alignment.
    """
    words, _, gold = bakeoff(corpus)
    dictionary = set(words)
    lines = list(zip(gold, predicted(corpus, "bmm")))[::160]
    for gold_line, test_line in lines:
        gold_words, test_words = words_of(gold_line), words_of(test_line)
        ours = score([gold_line], [test_line], dictionary)
        expected = diff_counts(gold_words, test_words, dictionary)
        assert (ours.correct_gold, ours.correct_predicted, ours.oov_words, ours.oov_correct) == expected, gold_line
