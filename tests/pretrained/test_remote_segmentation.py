"""Chinese word segmentation saved through the remote-code transformers class (issues 6 and 7).

The oracles: jieba 0.42.1 for the words the reloaded pre-tokenizer cuts (jieba's dictionary, with
user words, HMM on and off), transformers.AutoTokenizer(trust_remote_code=True) for ids, offsets
and decoded text; where no outside oracle exists (a trained HMM), the tokenizer as it was before
saving.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from pathlib import Path

import pytest

import hfcompat
from hfcompat import normalizers, pre_tokenizers
from hfcompat.segmentation import HMM, BigramModel, ChineseWordSegmentation, Dictionary, Segmenter
from tests.conftest import corpus_sample, read_lines, shared_file

from .auto_harness import auto_tokenizer, compare_auto

jieba = pytest.importorskip("jieba", reason="jieba is not installed (test extra)")
jieba.setLogLevel(60)

USER_WORDS = ("商务处", "女干事", "云计算平台", "北京大")
EXTRA_TEXTS = ["我们相信AI可以让世界变得更美好", "商务处女干事", "东京和北京", "他来到了网易杭研大厦",
               "小明硕士毕业于中国科学院计算所，后在日本京都大学深造", "在云计算平台上 训练 3.14 个模型"]


@lru_cache(maxsize=1)
def chinese_texts() -> tuple[str, ...]:
    """Lines of the PKU test set (no trailing newline) and a few mixed texts."""
    return tuple([line.rstrip("\r\n") for line in corpus_sample("pku_test", 24)] + EXTRA_TEXTS)


@lru_cache(maxsize=1)
def shared_jieba_dictionary() -> Dictionary:
    """jieba's dictionary, read once (never handed out: tests add words to theirs)."""
    return Dictionary.from_jieba()


def jieba_dictionary() -> Dictionary:
    """A fresh copy of jieba's dictionary."""
    original = shared_jieba_dictionary()
    return dataclasses.replace(original, freq=dict(original.freq), force_split=set(original.force_split))


def bert_chinese(pre_tokenizer: pre_tokenizers.PreTokenizer) -> hfcompat.Tokenizer:
    """bert-base-chinese with the CJK spacing of its normalizer off, so words reach WordPiece whole."""
    tokenizer = hfcompat.load(shared_file("refs/bert-base-chinese/vocab.txt"))
    tokenizer.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False,
                                                      strip_accents=None, lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizer
    return tokenizer


def words(tokenizer: hfcompat.Tokenizer, text: str) -> list[str]:
    """The pre-tokens of `text` (the segmenter's words, spaces dropped)."""
    return [piece for piece, _ in tokenizer.pre_tokenizer.pre_tokenize_str(text)]


@lru_cache(maxsize=2)
def jieba_cutter(user_words: tuple[str, ...]):
    """A jieba.Tokenizer of its own dictionary plus `user_words` (built once: it takes a second)."""
    cutter = jieba.Tokenizer()
    cutter.initialize()
    for word in user_words:
        cutter.add_word(word)
    return cutter


def jieba_words(text: str, hmm: bool, user_words: tuple[str, ...] = ()) -> list[str]:
    """jieba's own cut of `text`, spaces dropped as the pre-tokenizer drops them."""
    return [w for w in jieba_cutter(user_words).lcut(text, HMM=hmm) if not w.isspace()]


def save_and_load_auto(tokenizer: hfcompat.Tokenizer, directory: Path):
    """save_pretrained(remote_code=True), then AutoTokenizer(trust_remote_code=True) on it."""
    tokenizer.save_pretrained(directory, remote_code=True)
    return auto_tokenizer(directory, trust_remote_code=True)


@pytest.mark.conformance
@pytest.mark.parametrize("hmm", [False, True], ids=["no-hmm", "hmm"])
def test_jieba_dictionary_through_auto_tokenizer(tmp_path: Path, hmm: bool) -> None:
    """jieba's dictionary, HMM on and off: AutoTokenizer matches hfcompat, the reload cuts as jieba."""
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(jieba_dictionary(), hmm=hmm)))
    auto = save_and_load_auto(ours, tmp_path / "saved")
    entry = json.loads((tmp_path / "saved" / "hfcompat_tokenizer.json").read_text())["pre_tokenizer"]
    # jieba's dict.txt repeats some words and jieba counts each repeat: the file alone would lose that.
    jieba_total = jieba_cutter(()).total
    assert entry == {"type": "ChineseWordSegmentation", "method": "dag", "hmm": hmm, "keep_whitespace": False,
                     "dictionary": "segmentation_dictionary.txt", "total": jieba_total}
    texts = chinese_texts()
    compare_auto(auto, ours, texts, f"jieba dictionary, hmm={hmm}").assert_clean()
    reread = hfcompat.load(tmp_path / "saved")
    assert [words(reread, t) for t in texts] == [jieba_words(t, hmm) for t in texts]
    assert [auto.tokenize(t) for t in texts] == [ours.encode(t, add_special_tokens=False).tokens for t in texts]


@pytest.mark.conformance
def test_user_words_survive_the_directory(tmp_path: Path) -> None:
    """Words added at run time (frequency suggested as jieba does) cut as jieba with the same words."""
    dictionary = jieba_dictionary()
    for word in USER_WORDS:
        Segmenter(dictionary).add_word(word)
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(dictionary, hmm=True)))
    auto = save_and_load_auto(ours, tmp_path / "saved")
    texts = chinese_texts()
    compare_auto(auto, ours, texts, "user words").assert_clean()
    reread = hfcompat.load(tmp_path / "saved")
    assert [words(reread, t) for t in texts] == [jieba_words(t, True, USER_WORDS) for t in texts]
    assert words(reread, "商务处女干事") == ["商务处", "女干事"]


def test_deleted_word_and_total_are_kept(tmp_path: Path) -> None:
    """A deleted word stays split and a re-added word keeps the dictionary's running total."""
    dictionary = Dictionary.from_words([("北京", 50), ("大学", 40), ("北京大学", 30), ("生活", 20)])
    dictionary.add_word("北京大学", 0)
    dictionary.add_word("生活", 25)
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(dictionary, hmm=True)))
    ours.save_pretrained(tmp_path, remote_code=True)
    entry = json.loads((tmp_path / "hfcompat_tokenizer.json").read_text())["pre_tokenizer"]
    assert entry["deleted"] == ["北京大学"] and entry["total"] == 165
    reread = hfcompat.load(tmp_path).pre_tokenizer.segmenter.dictionary
    assert (reread.total, reread.force_split, "北京大学" in reread) == (165, {"北京大学"}, False)
    text = "北京大学生活"
    assert words(hfcompat.load(tmp_path), text) == words(ours, text) == ["北京", "大学", "生活"]
    direct = hfcompat.load(tmp_path / "hfcompat_tokenizer.json").pre_tokenizer.segmenter.dictionary
    assert (direct.freq, direct.total, direct.force_split) == (reread.freq, reread.total, reread.force_split)


@pytest.mark.conformance
@pytest.mark.parametrize("method", ["fmm", "bidirectional", "shortest"])
def test_trained_hmm_and_training_word_list(tmp_path: Path, method: str) -> None:
    """A word list and an HMM trained on the PKU gold text: saved as files, reloaded identically."""
    gold = read_lines(shared_file("corpora/icwb2/pku_test_gold.utf8"))[:400]
    dictionary = Dictionary.load(shared_file("corpora/icwb2/pku_training_words.utf8"))
    hmm = HMM.train(gold)
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(dictionary, method=method, hmm=hmm),
                                                keep_whitespace=True))
    auto = save_and_load_auto(ours, tmp_path)
    entry = json.loads((tmp_path / "hfcompat_tokenizer.json").read_text())["pre_tokenizer"]
    assert (entry["method"], entry["hmm"], entry["keep_whitespace"]) == (method, "segmentation_hmm.json", True)
    assert HMM.from_dict(json.loads((tmp_path / "segmentation_hmm.json").read_text())) == hmm
    texts = chinese_texts()
    compare_auto(auto, ours, texts, f"trained HMM, {method}").assert_clean()
    reread = hfcompat.load(tmp_path)
    assert [words(reread, t) for t in texts] == [words(ours, t) for t in texts]


@pytest.mark.conformance
def test_segmentation_inside_a_sequence(tmp_path: Path) -> None:
    """Punctuation split first, then segmentation of each piece: both kept in order, two HMM-less cutters."""
    first = ChineseWordSegmentation(Segmenter(jieba_dictionary()))
    second = ChineseWordSegmentation(Segmenter(Dictionary.from_words(["北京", "东京"]), method="bmm"))
    ours = bert_chinese(pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), first, second]))
    auto = save_and_load_auto(ours, tmp_path)
    entry = json.loads((tmp_path / "hfcompat_tokenizer.json").read_text())["pre_tokenizer"]
    assert [p["type"] for p in entry["pretokenizers"]] == ["Punctuation", "ChineseWordSegmentation",
                                                          "ChineseWordSegmentation"]
    assert [p.get("dictionary") for p in entry["pretokenizers"]] == [
        None, "segmentation_dictionary.txt", "segmentation_dictionary_2.txt"]
    texts = chinese_texts()
    compare_auto(auto, ours, texts, "Sequence with segmentation").assert_clean()
    reread = hfcompat.load(tmp_path)
    assert [words(reread, t) for t in texts] == [words(ours, t) for t in texts]


@pytest.mark.conformance
def test_transformers_round_trip_copies_the_side_files(tmp_path: Path) -> None:
    """transformers' own save_pretrained of the remote class writes the dictionary and HMM again."""
    dictionary = Dictionary.from_words(["北京", "东京", "世界", "美好", "我们", "相信"])
    hmm = HMM.train(read_lines(shared_file("corpora/icwb2/pku_test_gold.utf8"))[:200])
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(dictionary, hmm=hmm)))
    first = save_and_load_auto(ours, tmp_path / "first")
    first.save_pretrained(str(tmp_path / "second"))
    saved = {p.name for p in (tmp_path / "second").iterdir()}
    assert {"hfcompat_tokenizer.json", "segmentation_dictionary.txt", "segmentation_hmm.json"} <= saved
    again = auto_tokenizer(tmp_path / "second", trust_remote_code=True)
    assert type(again).__name__ == "HfcompatTokenizer"
    compare_auto(again, ours, chinese_texts(), "after transformers' save_pretrained").assert_clean()
    reread = hfcompat.load(tmp_path / "second")
    assert [words(reread, t) for t in chinese_texts()] == [words(ours, t) for t in chinese_texts()]


def test_plain_tokenizer_json_still_refuses(tmp_path: Path) -> None:
    """tokenizer.json (save, plain save_pretrained, to_str) refuses segmentation and writes nothing."""
    ours = bert_chinese(pre_tokenizers.Sequence([ChineseWordSegmentation(Segmenter(Dictionary.from_words(["北京"])))]))
    with pytest.raises(hfcompat.UnsupportedConversion, match="ChineseWordSegmentation"):
        ours.save(tmp_path / "tokenizer.json")
    with pytest.raises(hfcompat.UnsupportedConversion, match="ChineseWordSegmentation"):
        ours.save_pretrained(tmp_path / "plain")
    with pytest.raises(hfcompat.UnsupportedConversion, match="ChineseWordSegmentation"):
        ours.to_str()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.conformance
def test_trained_bigram_model_through_auto_tokenizer(tmp_path: Path) -> None:
    """Method "bigram": the trained model goes to its own file and reloads to the same cuts."""
    gold = read_lines(shared_file("corpora/icwb2/pku_test_gold.utf8"))[:400]
    model = BigramModel.train(gold)
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(method="bigram", bigram=model)))
    auto = save_and_load_auto(ours, tmp_path)
    entry = json.loads((tmp_path / "hfcompat_tokenizer.json").read_text())["pre_tokenizer"]
    assert (entry["method"], entry["bigram"]) == ("bigram", "segmentation_bigram.json")
    assert BigramModel.from_dict(json.loads((tmp_path / "segmentation_bigram.json").read_text())) == model
    texts = chinese_texts()
    compare_auto(auto, ours, texts, "trained bigram model").assert_clean()
    reread = hfcompat.load(tmp_path)
    assert [words(reread, t) for t in texts] == [words(ours, t) for t in texts]


def test_missing_dictionary_file_names_it(tmp_path: Path) -> None:
    """A directory whose dictionary file was lost fails with a FormatError naming the file and field."""
    ours = bert_chinese(ChineseWordSegmentation(Segmenter(Dictionary.from_words(["北京"]))))
    ours.save_pretrained(tmp_path, remote_code=True)
    (tmp_path / "segmentation_dictionary.txt").unlink()
    with pytest.raises(hfcompat.FormatError, match="segmentation_dictionary.txt") as caught:
        hfcompat.load(tmp_path)
    assert caught.value.field == "pre_tokenizer.dictionary"
