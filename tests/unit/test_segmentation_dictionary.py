"""Dictionary: jieba's format, word lists, the prefix table, user words, errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hfcompat.errors import FormatError
from hfcompat.segmentation import Dictionary, Segmenter


def test_load_jieba_format_counts_prefixes_and_duplicates(tmp_path: Path) -> None:
    """word freq tag lines: prefixes get 0, a repeated word keeps its last frequency, totals add up."""
    path = tmp_path / "dict.txt"
    path.write_text("北京大学 20 nt\n北京 50 ns\n大学 30\n北京 40 ns\n", encoding="utf-8")
    d = Dictionary.load(path)
    assert d.freq == {"北京大学": 20, "北": 0, "北京": 40, "北京大": 0, "大学": 30, "大": 0}
    assert d.total == 140
    assert "北京" in d and "北京大" not in d and len(d) == 3
    assert d.max_length == 4


def test_load_word_list_gives_each_word_the_default_frequency(tmp_path: Path) -> None:
    """One word a line (the SIGHAN training word lists), blank lines ignored."""
    path = tmp_path / "words.utf8"
    path.write_text("商务\n\n处女\n", encoding="utf-8")
    d = Dictionary.load(path)
    assert d.freq == {"商务": 1, "商": 0, "处女": 1, "处": 0} and d.total == 2


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """save writes jieba's format; loading it gives the same words and frequencies."""
    d = Dictionary.from_words([("北京大学", 20), ("北京", 40), ("大学", 30)])
    d.add_word("清华", 5)
    path = tmp_path / "user.dict"
    d.save(path)
    assert path.read_text(encoding="utf-8").splitlines()[0] == "北京大学 20"
    again = Dictionary.load(path)
    assert again.freq == d.freq and again.total == d.total


def test_bad_frequency_names_file_and_line(tmp_path: Path) -> None:
    """A non-integer frequency is a FormatError that says where."""
    path = tmp_path / "bad.txt"
    path.write_text("好 1\n坏 x n\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.txt.*line 2.*'x'"):
        Dictionary.load(path)


def test_add_word_with_and_without_frequency() -> None:
    """A user word without frequency gets just enough to beat the split path; 0 deletes it."""
    d = Dictionary.from_words([("今天", 10), ("天气", 10), ("今", 5), ("天", 5), ("气", 5)])
    Segmenter(d).add_word("今天天气")
    assert d.freq["今天天气"] > 0 and "今天天" in d.freq
    d.add_word("天气", 0)
    assert "天气" not in d and "天气" in d.force_split


def test_log_probs_are_log_frequency_minus_log_total() -> None:
    """The DAG's edge weights, and the weight of a character no word covers."""
    d = Dictionary.from_words([("甲", 3), ("乙丙", 1)])
    assert d.log_probs() == {"甲": math.log(3) - math.log(4), "乙丙": math.log(1) - math.log(4), "乙": None}
    assert d.log_unknown() == -math.log(4)
    assert d.log_prob("乙") == d.log_prob("丁") == -math.log(4)


def test_from_jieba_equals_jiebas_own_prefix_table() -> None:
    """Dictionary.from_jieba() holds exactly the table and total jieba builds."""
    jieba = pytest.importorskip("jieba")
    jieba.setLogLevel(60)
    reference = jieba.Tokenizer()
    reference.initialize()
    d = Dictionary.from_jieba()
    assert d.total == reference.total
    assert d.freq == reference.FREQ


def test_user_words_as_jieba_adds_them() -> None:
    """add_word with and without frequency, and deletion: same table and same cuts as jieba's."""
    jieba = pytest.importorskip("jieba")
    jieba.setLogLevel(60)
    reference = jieba.Tokenizer()
    d = Dictionary.from_jieba()

    try:
        for word, freq in [("杭研大厦", None), ("AI芯片", None), ("云计算平台", 7), ("世界", 0)]:
            reference.add_word(word, freq)
            Segmenter(d).add_word(word, freq)
            assert d.freq[word] == reference.FREQ[word]
        assert d.total == reference.total
        for text in ["他来到了杭研大厦，用AI芯片搭云计算平台，改变世界", "世界杭研大厦世界"]:
            assert Segmenter(d).cut(text) == reference.lcut(text, HMM=False)
            assert Segmenter(d, hmm=True).cut(text) == reference.lcut(text, HMM=True)
    finally:  # jieba keeps deleted words in a module-wide set: leave it as it was
        jieba.finalseg.Force_Split_Words.discard("世界")
