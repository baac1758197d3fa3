"""transformers' classes that need rjieba to load (CpmTokenizer, RoFormerTokenizer, CpmAntTokenizer): hfcompat.load(dir) against
AutoTokenizer on directories of the files each class reads.

CpmTokenizer reads XLNet's spiece.model (../shared/refs/xlnet). RoFormerTokenizer reads a vocab.txt made here:
rjieba's words and the characters seen twice or more in Chinese corpus lines, ASCII words and "##" pieces (the
others meet [UNK]); from vocab.txt alone the class tests words against the file's path, so one directory's
name holds Chinese words; its save_pretrained (tokenizer.json) tests them against the vocabulary. CpmAntTokenizer
reads a vocab.txt of the same words with its roles and its space and line tokens. transformers runs these as Python tokenizers (no
.tokens()), so token strings are compared as convert_ids_to_tokens gives them (hfcompat's id_to_token: its
encodings show an lstrip special token with the spaces it took). Compared per text: ids, tokens, decode with
skip_special_tokens both ways; pairs: ids and type ids.
"""

from __future__ import annotations

import json
import shutil
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, MissingDependency, UnsupportedConversion
from hfcompat.formats.transformers import classes, own_files
from hfcompat.formats.transformers.jieba_classes import CLASSES, rjieba_segmenter
from hfcompat.segmentation import dictionary
from tests.conformance.test_hypothesis import texts
from tests.conftest import corpus_sample, fixture_lines, shared_file

from .auto_harness import auto_tokenizer

pytestmark = pytest.mark.conformance
rjieba = pytest.importorskip("rjieba", reason="transformers' CpmTokenizer and RoFormerTokenizer load only with rjieba")

# The directories compared: kind -> (class, tokenizer_config.json options).
CPM: dict[str, tuple[str, dict[str, Any]]] = {
    "cpm": ("CpmTokenizer", {}),
    "cpm-options": ("CpmTokenizer", {"do_lower_case": True, "keep_accents": True, "remove_space": False,
                                     "additional_special_tokens": ["<eop>", "▂"], "mask_token": "<m>"}),
}
ROFORMER: dict[str, tuple[str, dict[str, Any]]] = {
    "roformer": ("RoFormerTokenizer", {}),
    "roformer-银行行长中国": ("RoFormerTokenizer", {}),
    "roformer-cased": ("RoFormerTokenizer", {"do_lower_case": False, "strip_accents": True, "mask_token": "<m>",
                                             "additional_special_tokens": ["银行", "[x]"]}),
}
CPM_ANT: dict[str, tuple[str, dict[str, Any]]] = {
    "cpm-ant": ("CpmAntTokenizer", {}),
    "cpm-ant-options": ("CpmAntTokenizer", {"space_token": "<sp>", "line_token": "<nl>", "bod_token": "<bod>",
                                            "pad_token": "<p>", "unk_token": "<u>",
                                            "additional_special_tokens": ["银行", "[x]"]}),
}
ASCII_WORDS = ["iphone", "the", "of", "and", "gdp", "ok", "a", "b", "c", "##s", "##ing", "##12", "##b", "12", "u", "s"]
MIXED = ["今天天气非常好。iPhone12 售价 1,299,000 元, 3,4 x1, ok", "中国人民银行行长\n\n说：「２０２４年」 naïve café ``q''",
         "▂空格▃换行 a▂b ▃", "U.S.A.的GDP增长了3.5%, 约合$1,000,000。\t\u3000全角　空格", "\r\n中文\r\n", " ", ""]


def write_cpm(path: Path, config: dict[str, Any]) -> Path:
    """XLNet's spiece.model and a config naming CpmTokenizer."""
    path.mkdir()
    shutil.copy(shared_file("refs/xlnet/spiece.model"), path / "spiece.model")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "CpmTokenizer", **config}),
                                                encoding="utf-8")
    return path


def roformer_vocabulary() -> list[str]:
    """BERT's roles, rjieba's words seen twice or more in Chinese corpus lines, the characters seen twice or more,
    and ASCII words and pieces."""
    lines = corpus_sample("pku_test", 300)
    words = Counter(word for line in lines for word in rjieba.cut(line, False) if len(word) > 1)
    chars = Counter(char for line in lines for char in line if not char.isspace())
    return ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *ASCII_WORDS, *sorted(c for c in chars if chars[c] > 1),
            *sorted(w for w in words if words[w] > 1)]


def write_vocab_txt(path: Path, name: str, config: dict[str, Any], tokens: list[str]) -> Path:
    """vocab.txt and a config naming the class."""
    path.mkdir()
    (path / "vocab.txt").write_text("".join(f"{token}\n" for token in tokens), encoding="utf-8")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name, **config}), encoding="utf-8")
    return path


def cpm_ant_vocabulary(config: dict[str, Any]) -> list[str]:
    """CpmAnt's roles, its space and line tokens (the config's or its defaults) and RoFormer's other tokens."""
    firsts = ["<d>", "</d>", "<s>", "</s>", "</_>", "<pad>", "<unk>", "</n>"]
    given = [value for value in config.values() if isinstance(value, str) and value not in firsts]
    return firsts + given + roformer_vocabulary()[5:]


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every directory compared, by kind (with each class's save_pretrained of its first)."""
    root = tmp_path_factory.mktemp("jieba")
    found = {kind: write_cpm(root / kind, config) for kind, (_, config) in CPM.items()}
    tokens = roformer_vocabulary()
    found.update({kind: write_vocab_txt(root / kind, name, config, tokens) for kind, (name, config) in ROFORMER.items()})
    found.update({kind: write_vocab_txt(root / kind, name, config, cpm_ant_vocabulary(config))
                  for kind, (name, config) in CPM_ANT.items()})
    for kind in ("cpm", "roformer", "cpm-ant"):
        auto_tokenizer(found[kind]).save_pretrained(str(root / f"{kind}-saved"))
        found[f"{kind}-saved"] = root / f"{kind}-saved"
    return found


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {kind: (auto_tokenizer(path), hfcompat.load(path)) for kind, path in directories.items()}


def expected_and_actual(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries."""
    ids = auto(text)["input_ids"]
    encoding = ours.encode(text)
    return ((ids, auto.convert_ids_to_tokens(ids), auto.decode(ids), auto.decode(ids, skip_special_tokens=True)),
            (encoding.ids, [ours.id_to_token(i) for i in encoding.ids], ours.decode(ids, skip_special_tokens=False),
             ours.decode(ids, skip_special_tokens=True)))


def lines_for(auto: Any) -> list[str]:
    """Chinese, English and Japanese corpus lines, fixture lines, mixed lines and lines holding each special token."""
    try:
        corpus = corpus_sample("pku_test", 40) + corpus_sample("botchan", 10) + corpus_sample("wagahaiwa", 10)
    except pytest.skip.Exception:
        corpus = []
    specials = [token for token in auto.all_special_tokens if token]
    with_specials = [f"你好 {token}世界{token} x  {token} " for token in specials]
    return corpus + list(fixture_lines()) + MIXED + with_specials + [f"a\n{specials[0]}\n中 {specials[-1]}\n",
                                                              "空格</_>换行</n> <d>文</d>\r\n <sp><nl>"]


def _agree(expected: tuple, actual: tuple) -> bool:
    """True when both libraries' fields are equal."""
    return expected == actual


def differing_texts(auto: Any, ours: Any, lines: list[str]) -> list[str]:
    """The lines and pairs (first lines with non-empty last ones: transformers' fast classes encode a pair with an
    empty second text as the first alone) on which the libraries differ."""
    differing = [text for text in lines if not _agree(*expected_and_actual(auto, ours, text))]
    for first, second in zip(lines[:4], [line for line in lines if line.strip()][-4:]):
        result = auto(first, second, return_token_type_ids=True)
        encoding = ours.encode(first, second)
        if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
            differing.append(f"pair {first[:20]!r} {second[:20]!r}")
    return differing


def test_every_class_of_the_family_is_built_and_checked() -> None:
    """Each class is registered, no longer NOT_BUILT, and has a directory here."""
    assert set(CLASSES) <= set(own_files.OWN_FILES_CLASSES)
    assert not set(CLASSES) & set(classes.NOT_BUILT)
    assert {name for name, _ in [*CPM.values(), *ROFORMER.values(), *CPM_ANT.values()]} == set(CLASSES)


@pytest.mark.parametrize("kind", [*CPM, "cpm-saved", *ROFORMER, "roformer-saved", *CPM_ANT, "cpm-ant-saved"])
def test_class_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines, mixed lines, lines holding each special token, and pairs agree."""
    auto, ours = loaded[kind]
    lines = lines_for(auto)
    differing = differing_texts(auto, ours, lines)
    assert differing == [], f"{kind}: {len(differing)}/{len(lines) + 4} differ: {differing[:3]}"


@pytest.mark.parametrize("kind", ["cpm", "roformer", "roformer-saved", "cpm-ant", "cpm-ant-options"])
def test_loading_warns_of_nothing(directories: dict, kind: str) -> None:
    """A directory hfcompat encodes and decodes as transformers does loads without a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(directories[kind])
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("kind", ["cpm", "roformer", "roformer-saved", "cpm-ant"])
@settings(max_examples=80, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, kind: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[kind], text)
    assert actual == expected


@pytest.mark.parametrize("kind", ["cpm", "roformer", "cpm-ant"])
def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path, kind: str) -> None:
    """No tokenizer.json holds the class's Python steps: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder|pre_tokenizer): "):
        loaded[kind][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


def test_cpm_without_its_model_is_refused(tmp_path: Path) -> None:
    """No spiece.model: AutoTokenizer fails to load the directory, hfcompat raises a FormatError naming the file."""
    path = write_cpm(tmp_path / "cpm", {})
    (path / "spiece.model").unlink()
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match="spiece.model"):
        hfcompat.load(path)


def test_roformer_without_its_vocabulary_is_refused(tmp_path: Path) -> None:
    """No vocab.txt nor tokenizer.json: AutoTokenizer loads but fails on a text, hfcompat refuses naming the file."""
    path = write_vocab_txt(tmp_path / "roformer", "RoFormerTokenizer", {}, ["[UNK]"])
    (path / "vocab.txt").unlink()
    with pytest.raises(Exception):
        auto_tokenizer(path)("今天")
    with pytest.raises(FormatError, match="vocab.txt: missing"):
        hfcompat.load(path)


def test_cpm_ant_without_its_space_token_is_refused(tmp_path: Path) -> None:
    """A vocab.txt without </_>: AutoTokenizer fails to load the directory, hfcompat raises a FormatError naming it."""
    path = write_vocab_txt(tmp_path / "cpm-ant", "CpmAntTokenizer", {}, ["<s>", "<unk>", "</n>", "a"])
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match="vocab.txt: no '</_>'"):
        hfcompat.load(path)


def test_roformer_without_jieba_says_what_to_install(directories: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """hfcompat reads jieba's dict.txt (the dictionary rjieba embeds): without the jieba package, loading raises
    MissingDependency naming it."""
    def absent(relative: str) -> Path:
        raise ModuleNotFoundError("jieba is not installed")

    monkeypatch.setattr(dictionary, "jieba_file", absent)
    rjieba_segmenter.cache_clear()
    try:
        with pytest.raises(MissingDependency, match="pip install jieba"):
            hfcompat.load(directories["roformer"])
    finally:
        rjieba_segmenter.cache_clear()


@pytest.mark.parametrize("text", ["今天天气非常好", "中国人民银行行长说iPhone12售价1,299元\r\n", "㐀中国豈國𠀀人民 abc_d%e"])
def test_segmentation_is_rjiebas(text: str) -> None:
    """The segmenter RoFormer uses cuts as rjieba.cut(text, False), ideographs outside Python jieba's Han range
    included."""
    assert rjieba_segmenter().cut(text) == rjieba.cut(text, False)


def test_cpm_ant_space_token_outside_the_vocabulary_is_refused(tmp_path: Path) -> None:
    """A configured space token vocab.txt lacks: transformers loads it with a new id, hfcompat refuses naming it."""
    path = write_vocab_txt(tmp_path / "cpm-ant", "CpmAntTokenizer", {"space_token": "<sp>"}, cpm_ant_vocabulary({}))
    assert "<sp>" in auto_tokenizer(path).all_special_tokens
    with pytest.raises(UnsupportedConversion, match="^added_tokens: CpmAntTokenizer's space_token '<sp>'"):
        hfcompat.load(path)


def test_cpm_sampling_options_warn(tmp_path: Path) -> None:
    """sp_model_kwargs with sampling: hfcompat warns, and AutoTokenizer really encodes otherwise than without them."""
    path = write_cpm(tmp_path / "cpm", {"sp_model_kwargs": {"enable_sampling": True, "alpha": 0.5, "nbest_size": -1}})
    with pytest.warns(UserWarning, match="sp_model_kwargs"):
        ours = hfcompat.load(path)
    text = "Sentencepiece samples segmentations of unbelievably long words."
    sampled = {tuple(auto_tokenizer(path)(text)["input_ids"]) for _ in range(5)}
    assert sampled != {tuple(ours.encode(text).ids)}
