"""Segmenter methods, block rules, the pre-tokenizer and its refusal to go into tokenizer.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from hfcompat.errors import UnsupportedConversion
from hfcompat.models.wordlevel import WordLevel
from hfcompat.segmentation import HMM, METHODS, BigramModel, ChineseWordSegmentation, Dictionary, Segmenter
from hfcompat.segmentation.pre_tokenizer import SideFiles
from hfcompat.tokenizer import Tokenizer

WORDS = Dictionary.from_words([("研究", 10), ("研究生", 5), ("生命", 10), ("命", 1), ("起源", 10)])


@pytest.mark.parametrize("method", [m for m in METHODS if m != "char_bigram"])
def test_every_method_covers_the_text(method: str) -> None:
    """Whatever the method, the words concatenate back to the input."""
    bigram = BigramModel.train(["研究 生命 起源"]) if method == "bigram" else None
    text = "研究生命起源, AI 3.5%\r\n好"
    assert "".join(Segmenter(WORDS, method=method, bigram=bigram).cut(text)) == text


def test_graph_methods_keep_ascii_runs_and_split_other_characters() -> None:
    """Without HMM: one-letter pieces join into ASCII runs; spaces and CR LF are tokens."""
    assert Segmenter(WORDS).cut("研究ab12 生命，\r\n") == ["研究", "ab12", " ", "生命", "，", "\r\n"]


def test_matching_methods_cut_whole_non_space_runs() -> None:
    """fmm sees punctuation and full-width digits inside its run (the bakeoff's baseline)."""
    assert Segmenter(WORDS, method="fmm").cut("研究生命，１２ 起源") == ["研究生", "命", "，", "１", "２", " ", "起源"]


def test_hmm_resegments_runs_of_single_characters() -> None:
    """Unknown single characters in a row go to the HMM; a run that is a word stays split."""
    model = HMM.train(["我们 相信 世界", "世界 很 美好"])
    segmenter = Segmenter(WORDS, hmm=model)
    assert segmenter.cut("研究我们相信") == ["研究", "我们", "相信"]


def test_bigram_model_picks_the_likelier_pair() -> None:
    """The bigram path follows the training text where the unigram path would not."""
    model = BigramModel.train(["研究 生命 起源"] * 3)
    d = Dictionary.from_words([("研究生", 100), ("研究", 1), ("生命", 1), ("命", 100), ("起源", 1)])
    assert Segmenter(d, method="dag").cut("研究生命") == ["研究生", "命"]
    assert Segmenter(d, method="bigram", bigram=model).cut("研究生命") == ["研究", "生命"]
    assert Segmenter(method="bigram", bigram=model).cut("研究生命起源") == ["研究", "生命", "起源"]


def test_jieba_rs_blocks_take_every_cjk_ideograph_block(tmp_path: Path) -> None:
    """jieba-rs's Han runs hold Extension A and compatibility ideographs, Python jieba's do not: a word holding
    one is cut whole only with blocks "jieba-rs"; the choice survives the extension entry of the pre-tokenizer."""
    words = Dictionary.from_words([("㐀研究", 10), ("研究", 10)])
    assert Segmenter(words).cut("㐀研究豈") == ["㐀", "研究", "豈"]
    segmenter = Segmenter(words, blocks="jieba-rs")
    assert segmenter.cut("㐀研究豈") == ["㐀研究", "豈"]
    files = SideFiles()
    entry = ChineseWordSegmentation(segmenter).to_extension_dict(files)
    assert entry["blocks"] == "jieba-rs"
    for name, text in files.written.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    again = ChineseWordSegmentation.from_extension_dict(entry, SideFiles(directory=tmp_path))
    assert again.segmenter.cut("㐀研究豈") == ["㐀研究", "豈"]
    with pytest.raises(ValueError, match="unknown blocks 'rust'"):
        Segmenter(words, blocks="rust")


def test_bad_arguments() -> None:
    """Unknown methods and a bigram method without a model are refused."""
    with pytest.raises(ValueError, match="unknown segmentation method 'viterbi'"):
        Segmenter(WORDS, method="viterbi")
    with pytest.raises(ValueError, match="bigram"):
        Segmenter(WORDS, method="bigram")


def test_pre_tokenizer_offsets_and_whitespace() -> None:
    """Words with char offsets; whitespace dropped unless asked for."""
    pre = ChineseWordSegmentation(Segmenter(WORDS))
    assert pre.pre_tokenize_str("研究 生命") == [("研究", (0, 2)), ("生命", (3, 5))]
    keep = ChineseWordSegmentation(Segmenter(WORDS), keep_whitespace=True)
    assert [w for w, _ in keep.pre_tokenize_str("研究 生命")] == ["研究", " ", "生命"]


def test_tokenizer_with_the_pre_tokenizer_encodes_and_refuses_tokenizer_json(tmp_path: Path) -> None:
    """A WordLevel tokenizer gets whole words; saving to tokenizer.json raises and writes nothing."""
    vocab = {"[UNK]": 0, "研究": 1, "生命": 2, "起源": 3}
    tokenizer = Tokenizer(WordLevel(vocab, unk_token="[UNK]"),
                          pre_tokenizer=ChineseWordSegmentation(Segmenter(WORDS, method="bmm")))
    encoding = tokenizer.encode("研究生命起源")
    assert encoding.tokens == ["研究", "生命", "起源"] and encoding.offsets == [(0, 2), (2, 4), (4, 6)]
    target = tmp_path / "tokenizer.json"
    with pytest.raises(UnsupportedConversion, match="ChineseWordSegmentation"):
        tokenizer.save(str(target))
    assert not target.exists()


def test_bigram_model_to_dict_round_trips_through_json() -> None:
    """The saved form rebuilds the same counts, which cut the same words."""
    import json
    model = BigramModel.train(["北京 大学 生活", "北京 大学生 活动", "东京 大学"])
    again = BigramModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again == model
    dictionary = model.dictionary()
    assert Segmenter(dictionary, method="bigram", bigram=again).cut("北京大学生活") == \
        Segmenter(dictionary, method="bigram", bigram=model).cut("北京大学生活")


@pytest.mark.parametrize("change, field", [
    ({"weight": 2}, "weight"), ({"total": -1}, "total"), ({"unigrams": {"a": "1"}}, "unigrams"),
    ({"bigrams": [["a", 1]]}, "bigrams"),
])
def test_bigram_model_from_dict_names_the_bad_part(change: dict, field: str) -> None:
    """A malformed saved model is a FormatError naming the part."""
    from hfcompat.errors import FormatError
    data = {**BigramModel.train(["北京 大学"]).to_dict(), **change}
    with pytest.raises(FormatError) as caught:
        BigramModel.from_dict(data)
    assert caught.value.field == field
