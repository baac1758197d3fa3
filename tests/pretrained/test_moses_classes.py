"""transformers' Moses-tokenizing classes (XLMTokenizer, FlaubertTokenizer, FSMTTokenizer, BioGptTokenizer):
hfcompat.load(dir) against AutoTokenizer on directories written here.

Each directory holds a vocabulary and merges.txt of a "</w>" BPE that hfcompat's trainer learns from corpus words
(English, French, Chinese/Japanese and the multilingual fixture), with the special tokens the class names partly
absent (so they are added) and, in the "trimmed" directories (two with clean_up_tokenization_spaces on), merge
results and a merged character left out of the vocabulary (transformers still merges them and then gives the
unk id); AutoTokenizer's save_pretrained of the others too. merges.txt keeps fairseq's count column
and a "#version" first line, which the classes read as one more merge. Compared per text: ids, tokens
(convert_ids_to_tokens), decode with skip_special_tokens both ways; pairs: ids and type ids.
transformers runs these as Python tokenizers, which give no offsets.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import MissingDependency, UnsupportedConversion
from hfcompat.tools.explain import explain, render
from hfcompat.trainers.bpe import BpeTrainer
from tests.conformance.test_hypothesis import texts
from tests.conftest import corpus_sample

from .auto_harness import auto_tokenizer
from .test_byte_classes import agree, expected_and_actual
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance
sacremoses = pytest.importorskip("sacremoses", reason="sacremoses is not installed (test extra)")

FRENCH = [
    "C'est l’été : «bonjour», dit-il à l'homme qui s'en allait — vers Paris.",
    "Qu'est-ce qu'on mange aujourd'hui ? Des crêpes, du pâté et un œuf… ",
    "L'élève a écrit ``entre guillemets'' puis « autrement » ; voilà !",
    "Ça coûte 12,50 € (TTC) – n'est-ce pas cher ?",
]
ODD = [
    "l'homme -- e-mail here&there | <b> [x] {y} 1,000.50 $5 100% a/b",
    "Fullwidth：punctuation，（test）！ ２０２４年 【mark】 ～ ‘quote’ “double”",
    "Tabs\tand\u00a0no-break\u200bzero-width\x07bell\u0301 cafe\u0301 İstanbul ŞTİ",
    "can't won't y'all O'Neil's rock'n'roll ... ?! e.g. U.S.A. Mr. Smith",
    "   ", "", "ʕ•ᴥ•ʔ \U0001f600 — – ‐ ‑ -- --- ",
]
SPECIALS = ["<s>", "</s>", "<pad>", "<unk>"]
# A directory per case: (class, its config options, vocabulary trimmed).
CASES: dict[str, tuple[str, dict[str, Any], bool]] = {
    "xlm": ("XLMTokenizer", {}, False),
    "xlm-cased-trimmed": ("XLMTokenizer", {"do_lowercase_and_remove_accent": False,
                                           "clean_up_tokenization_spaces": True}, True),
    "flaubert": ("FlaubertTokenizer", {}, False),
    "flaubert-lower-trimmed": ("FlaubertTokenizer", {"do_lowercase": True}, True),
    "fsmt": ("FSMTTokenizer", {"langs": ["en", "de"]}, False),
    "fsmt-fr-lower-trimmed": ("FSMTTokenizer", {"langs": ["fr", "ru"], "do_lower_case": True}, True),
    "biogpt": ("BioGptTokenizer", {}, False),
    "biogpt-trimmed": ("BioGptTokenizer", {"unk_token": "<unk>", "clean_up_tokenization_spaces": True}, True),
}


def training_words() -> Counter:
    """Word counts of English, French, Chinese/Japanese and fixture lines (whitespace words, Moses-escaped
    forms too), cased and lowercased."""
    lines = corpus_sample("botchan", 300) + corpus_sample("wagahaiwa", 20) + corpus_sample("pku_test", 20) + FRENCH
    counts: Counter = Counter()
    for line in lines + [line.lower() for line in lines]:
        counts.update(line.split())
    counts.update({"&amp;": 5, "&#124;": 5, "&lt;": 5, "&gt;": 5, "&quot;": 5, "&apos;s": 5, "@-@": 5})
    return counts


@pytest.fixture(scope="module")
def learned() -> tuple[dict[str, int], list[tuple[str, str]]]:
    """The vocabulary and merges hfcompat's BPE trainer learns (with "</w>" on each word's last character)."""
    return BpeTrainer(vocab_size=1000, limit_alphabet=250, end_of_word_suffix="</w>",
                      show_progress=False).learn(training_words())


def vocabulary(learned_vocab: dict[str, int], merges: list[tuple[str, str]], trimmed: bool) -> dict[str, int]:
    """<s> </s> <pad> <unk> then the learned tokens; trimmed: every 7th merge result and a merged character left
    out."""
    dropped = {left + right for left, right in merges[5::7]} | {merges[3][0]} if trimmed else set()
    tokens = SPECIALS + [token for token in learned_vocab if token not in SPECIALS and token not in dropped]
    return {token: index for index, token in enumerate(tokens)}


def write_directory(directory: Path, name: str, options: dict[str, Any], trimmed: bool,
                    learned: tuple[dict[str, int], list[tuple[str, str]]]) -> None:
    """The class's vocabulary file(s), merges.txt and tokenizer_config.json."""
    learned_vocab, merges = learned
    directory.mkdir()
    vocab = vocabulary(learned_vocab, merges, trimmed)
    files = {"vocab-src.json": vocab, "vocab-tgt.json": dict(reversed(list(vocab.items())))} \
        if name == "FSMTTokenizer" else {"vocab.json": vocab}
    if trimmed and name == "FSMTTokenizer":
        # A target vocabulary giving other tokens to the ids: decode reads ids through it.
        tokens = list(vocab)
        files["vocab-tgt.json"] = {token: index for index, token in enumerate(tokens[:4] + tokens[:3:-1])}
    for file_name, content in files.items():
        (directory / file_name).write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    lines = ["#version: 0.2"] + [f"{left} {right} {1000 - rank}" for rank, (left, right) in enumerate(merges)]
    (directory / "merges.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name, **options}),
                                                     encoding="utf-8")


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory, learned: tuple) -> dict[str, Path]:
    """Each case's directory."""
    root = tmp_path_factory.mktemp("moses-classes")
    for case, (name, options, trimmed) in CASES.items():
        write_directory(root / case, name, options, trimmed, learned)
    return {case: root / case for case in CASES}


def resaved(directories: dict[str, Path], root: Path) -> dict[str, Path]:
    """Each untrimmed case as AutoTokenizer's save_pretrained writes it back (added_tokens_decoder and all)."""
    saved = {}
    for case, path in directories.items():
        if not CASES[case][2]:
            saved[f"{case}-saved"] = root / f"{case}-saved"
            auto_tokenizer(path).save_pretrained(str(saved[f"{case}-saved"]))
    return saved


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Any]]:
    """Case (and "<case>-saved") -> (AutoTokenizer, hfcompat tokenizer) of its directory."""
    paths = {**directories, **resaved(directories, tmp_path_factory.mktemp("moses-saved"))}
    return {case: (auto_tokenizer(path), hfcompat.load(path)) for case, path in paths.items()}


def compared(auto: Any, ours: Any, case: str, text: str) -> tuple[tuple, tuple]:
    """expected_and_actual, without the tokens where the target vocabulary differs (FSMT's convert_ids_to_tokens
    reads it, hfcompat's tokens are the source vocabulary's, as the ids are)."""
    expected, actual = expected_and_actual(auto, ours, text)
    if case == "fsmt-fr-lower-trimmed":
        return expected[:1] + expected[2:], actual[:1] + actual[2:]
    return expected, actual


def test_every_case_reads_its_directory(loaded: dict, directories: dict) -> None:
    """Each case is the class it names, built by hfcompat from the files (no tokenizer.json), without a warning."""
    for case, (auto, ours) in loaded.items():
        assert type(auto).__name__ == CASES[case.removesuffix("-saved")][0]
        assert type(ours.model).__name__ == "PairRankBPE"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for path in directories.values():
            hfcompat.load(path)


@pytest.mark.parametrize("case", sorted(CASES) + [f"{case}-saved" for case in sorted(CASES) if not CASES[case][2]])
def test_class_matches_auto(loaded: dict, backend: str, case: str) -> None:
    """Corpus lines (English, Japanese, Chinese, the multilingual fixture), French, odd punctuation, lines holding
    each special token, and pairs agree."""
    auto, ours = loaded[case]
    specials = [token for token in auto.all_special_tokens if token][:8]
    lines = corpus_texts() + FRENCH + ODD + [f"Hello {token}world{token} x  {token} " for token in specials] + \
        [f"{specials[0]}l'été{specials[-1]}", f"\x1f{specials[1]}\x1c x — {specials[2]}"]
    differing = [text for text in lines if not agree(*compared(auto, ours, case, text))]
    pairs = list(zip(lines[:3] + FRENCH[:2], ODD[:3] + lines[-2:]))
    for first, second in pairs:
        for add in (True, False):
            result = auto(first, second, return_token_type_ids=True, add_special_tokens=add)
            encoding = ours.encode(first, second, add_special_tokens=add)
            if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
                differing.append(f"pair {first[:20]!r} {second[:20]!r} add_special_tokens={add}")
    assert differing == [], f"{case}: {len(differing)}/{len(lines) + 2 * len(pairs)} differ: {differing[:3]}"


def test_unknowns_and_merges_are_exercised(loaded: dict) -> None:
    """The corpus lines meet merged tokens, unknown pieces and "</w>" tokens (else the comparison proves little)."""
    auto, ours = loaded["xlm-cased-trimmed"]
    tokens = [token for text in corpus_texts() + FRENCH
              for token in auto.convert_ids_to_tokens(auto(text)["input_ids"])]
    assert "<unk>" in tokens
    assert any(token.endswith("</w>") and len(token) > 5 for token in tokens)
    assert any(len(token) > 2 and not token.endswith("</w>") and token not in SPECIALS for token in tokens)


@pytest.mark.parametrize("case", ["xlm", "flaubert", "fsmt", "biogpt"])
@settings(max_examples=40, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, case: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = compared(*loaded[case], case, text)
    assert actual == expected


@pytest.mark.parametrize("case", sorted(CASES))
def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path, case: str) -> None:
    """No tokenizer.json holds Moses or the word BPE: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|pre_tokenizer|decoder): "):
        loaded[case][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_explain_names_the_moses_components(loaded: dict) -> None:
    """`explain` walks a Moses tokenizer (components tokenizer.json cannot hold are named by their class) and
    ends with AutoTokenizer's ids."""
    auto, ours = loaded["biogpt"]
    explanation = explain(ours, "Hello, e-mail & co.")
    assert explanation.ids == auto("Hello, e-mail & co.")["input_ids"]
    assert "pre-tokenizer: MosesPreTokenizer" in render(explanation)


def test_without_sacremoses_loading_says_what_to_install(directories: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a Moses class's directory without sacremoses raises MissingDependency naming the extra."""
    monkeypatch.setitem(sys.modules, "sacremoses", None)
    for case in ("xlm", "fsmt"):
        with pytest.raises(MissingDependency, match=r"pip install 'hfcompat\[moses\]'"):
            hfcompat.load(directories[case])


def test_fsmt_without_langs_is_refused(directories: dict, tmp_path: Path) -> None:
    """FSMTTokenizer needs `langs` (transformers raises ValueError): a FormatError naming the field."""
    directory = tmp_path / "fsmt"
    directory.mkdir()
    for path in directories["fsmt"].iterdir():
        (directory / path.name).write_bytes(path.read_bytes())
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "FSMTTokenizer"}), encoding="utf-8")
    with pytest.raises(ValueError):
        auto_tokenizer(directory)
    with pytest.raises(hfcompat.errors.FormatError, match="langs"):
        hfcompat.load(directory)


# A hand-made vocabulary where transformers' word BPE and tokenizers' BPE part: "aa a" ranks before "a a" (so
# "aaaaa" merges every "a a" first), "é" is not in the vocabulary but merges into "ét</w>", and "bb" is a merge
# result the vocabulary lacks.
HAND_VOCAB = SPECIALS + ["a", "a</w>", "aa", "aaa", "aa</w>", "t</w>", "ét</w>", "b", "b</w>", "ab</w>"]
HAND_MERGES = ["aa a", "a a", "é t</w>", "b b", "a b</w>", "a a</w>"]
HAND_TEXTS = ["aaaaa", "aaaa aaa aa a", "été ét", "bbb abb ab", "x ÉTÉ b", "aaaaa<special0>été"]


def hand_made_directory(directory: Path, name: str, lowercase: bool = False) -> Path:
    """HAND_VOCAB and HAND_MERGES under the class `name`."""
    directory.mkdir(exist_ok=True)
    (directory / "vocab.json").write_text(json.dumps({token: i for i, token in enumerate(HAND_VOCAB)}),
                                          encoding="utf-8")
    (directory / "merges.txt").write_text("\n".join(HAND_MERGES) + "\n", encoding="utf-8")
    (directory / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name,
                                                                 "do_lowercase_and_remove_accent": lowercase}),
                                                     encoding="utf-8")
    return directory


@pytest.mark.parametrize("name", ["XLMTokenizer", "BioGptTokenizer"])
def test_hand_made_merges_as_transformers(tmp_path: Path, backend: str, name: str) -> None:
    """Merges on strings, whole rank at a time, then the vocabulary: ids, tokens and decodes as AutoTokenizer."""
    hand_made_directory(tmp_path, name)
    auto, ours = auto_tokenizer(tmp_path), hfcompat.load(tmp_path)
    assert auto.tokenize("aaaaa") == ["aa", "aa", "a</w>"]  # tokenizers' BPE would give aaa a a</w>
    for text in HAND_TEXTS:
        expected, actual = expected_and_actual(auto, ours, text)
        assert actual == expected, text


@pytest.mark.parametrize("lang", ["zh", "ja", "th", "ro", "fr"])
def test_xlm_lang_argument_never_reaches_its_tokenizer(loaded: dict, lang: str) -> None:
    """transformers 5.24 calls _tokenize without keyword arguments, so XLM's lang= (rjieba, KyTea, PyThaiNLP,
    Romanian rewrite, other Moses rules) changes nothing: hfcompat's English path is AutoTokenizer's for any lang."""
    auto, ours = loaded["xlm"]
    for text in ["我们明天早上九点见面。", "東京の駅で友達を待っていた", "ภาษาไทยไม่มีช่องว่าง", "Ştiinţă l'homme"]:
        ids = auto(text, lang=lang)["input_ids"]
        assert ids == auto(text)["input_ids"] == ours.encode(text).ids


def test_added_token_made_by_merges_takes_its_added_id(tmp_path: Path, backend: str) -> None:
    """An added token ("bb", outside the vocabulary) that lowercasing and merges make from a text not holding it:
    transformers' Python lookup finds it among the added tokens first, and so does hfcompat."""
    auto = auto_tokenizer(hand_made_directory(tmp_path / "plain", "XLMTokenizer", lowercase=True))
    auto.add_tokens(["bb"])
    auto.save_pretrained(str(tmp_path / "added"))
    auto, ours = auto_tokenizer(tmp_path / "added"), hfcompat.load(tmp_path / "added")
    assert auto.tokenize("BBB") == ["bb", "b</w>"]
    for text in ["BBB Abb", "bb BB bBb", "aBBa"]:
        expected, actual = expected_and_actual(auto, ours, text)
        assert actual == expected, text
