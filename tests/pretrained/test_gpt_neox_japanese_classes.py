"""transformers' GPTNeoXJapaneseTokenizer: hfcompat.load(dir) against AutoTokenizer on directories of the
vocab.txt and emoji.json it reads, made here.

The vocabulary holds the class's tags (<SP>, <BR>, <URL>, <KIGOU>, ...), the byte tokens but a few (those bytes
meet the unknown token), an entry "<" and "<a" (no tag: the smallest id wins), the characters seen at least
twice in the fixture and Japanese corpus and their frequent two- and three-character runs (half of the runs
before the characters, so that the smallest id sometimes picks the shorter entry), and lines of spellings
sharing an id ("慶応,慶應"); emoji.json maps a few emoji, one of two code points. Directories: the made-up one,
transformers' own save_pretrained of it, and one with do_clean_text, other roles and clean-up. transformers runs the
class as a Python tokenizer (no .tokens()), so token strings come from convert_ids_to_tokens. Compared per
text: ids, tokens, decode with skip_special_tokens both ways; pairs: ids and type ids.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, TokenizationError, UnsupportedConversion
from hfcompat.formats.transformers import classes, own_files
from hfcompat.formats.transformers.gpt_neox_japanese import CLASSES
from tests.conformance.test_hypothesis import texts
from tests.conftest import corpus_sample, fixture_lines

from .auto_harness import auto_tokenizer
from .test_byte_classes import both_loaded, damage_files, differences, expected_and_actual

pytestmark = pytest.mark.conformance

TAGS = ["<SP>", "<BR>", "<TAB>", "<URL>", "<EMAIL>", "<TEL>", "<DATE>", "<PRICE>", "<BLOCK>", "<KIGOU>",
        "<U2000U2BFF>", "<|emoji1|>", "<|emoji2|>", "<|emoji3|>", "<|endoftext|>", "<", "<a"]
EMOJI = {"emoji": {"😀": "<|emoji1|>", "🇯🇵": "<|emoji2|>", "👍": "<|emoji3|>"},
         "emoji_inv": {"<|emoji1|>": "😀", "<|emoji2|>": "🇯🇵", "<|emoji3|>": "👍"}}
MISSING_BYTES = {0x80, 0xF0, 0x7E}
SPELLINGS = ["慶応,慶應", "猫,貓,ねこ", "です,デス", ",", "a,A"]
MADE: dict[str, dict[str, Any]] = {
    "neox-japanese": {},
    "neox-japanese-clean": {"do_clean_text": True, "bos_token": "<s>", "eos_token": "</s>",
                            "clean_up_tokenization_spaces": True},
}
ALL_KINDS = [*MADE, "neox-japanese-saved"]
SAMPLES = [
    "吾輩は猫である🐯。実は慶応(慶應)大学出身", "a b\u3000c\r\nd\ne\rf\tg—h−i  ",
    "¡¿ǀʹ̀ ‖→★⌘ ⿰ 😀👍🇯🇵🇯 <SP> < <a <b <<SP>", "ねこ貓猫です デス DESU A a ,,",
    "見て https://example.com/a?b=1 や foo.bar@mail.co.jp に 03-1234-5678 (090)1234-5678",
    "2023年1月2日(月)12時30分 と 令和5年1月2日 と 12/25 と 1,000円(税込) 3億5千万円 10ドル+tax",
    "━━━▀▀ ┃ ▟x─", "It 's ok , he said . Isn 't it ? n 't", "\x00\x7f\x80 é ~ \U0001f9e0", "",
]


def japanese_lines() -> list[str]:
    """The fixture's lines and, with ../shared, Japanese corpus lines."""
    try:
        corpus = corpus_sample("wagahaiwa", 40)
    except pytest.skip.Exception:
        corpus = []
    return list(fixture_lines()) + corpus


def made_vocabulary() -> list[str]:
    """vocab.txt's lines: tags, byte tokens, half the frequent runs, characters, the other runs, spellings."""
    lines = japanese_lines()
    chars = Counter(char for line in lines for char in line if not char.isspace() and char not in "<,")
    runs = Counter(line[i:i + n] for line in lines for n in (2, 3) for i in range(len(line) - n + 1))
    frequent = [run for run, count in runs.most_common(400) if count > 2 and not any(c.isspace() or c in "<,"
                                                                                     for c in run)]
    bytes_ = [f"<|byte{b}|>" for b in range(256) if b not in MISSING_BYTES]
    kept = [char for char, count in sorted(chars.items()) if count > 1]
    return list(dict.fromkeys(TAGS + bytes_ + frequent[::2] + kept + frequent[1::2] + SPELLINGS))


def write_directory(path: Path, config: dict[str, Any], vocabulary: list[str]) -> Path:
    """vocab.txt, emoji.json and a tokenizer_config.json naming the class."""
    path.mkdir()
    (path / "vocab.txt").write_text("".join(f"{line}\n" for line in vocabulary), encoding="utf-8")
    (path / "emoji.json").write_text(json.dumps(EMOJI, ensure_ascii=False), encoding="utf-8")
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "GPTNeoXJapaneseTokenizer",
                                                            **config}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every directory compared, by kind."""
    root = tmp_path_factory.mktemp("gpt-neox-japanese")
    vocabulary = made_vocabulary()
    found = {kind: write_directory(root / kind, config, vocabulary) for kind, config in MADE.items()}
    auto_tokenizer(found["neox-japanese"]).save_pretrained(str(root / "neox-japanese-saved"))
    return {**found, "neox-japanese-saved": root / "neox-japanese-saved"}


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    return both_loaded(directories)


def lines_for(auto: Any) -> list[str]:
    """Japanese and English corpus lines, the fixture, SAMPLES, and lines holding each special token."""
    try:
        corpus = corpus_sample("wagahaiwa", 15) + corpus_sample("botchan", 5)
    except pytest.skip.Exception:
        corpus = []
    specials = [token for token in auto.all_special_tokens if token][:6]
    return corpus + list(fixture_lines()) + SAMPLES + \
        [f"Hello {token}world{token} 猫  {token} " for token in specials] + \
        [f"{specials[0]}が{specials[-1]}", f" {specials[-1]}\n", "\n", " "]


def test_the_class_is_built_and_checked() -> None:
    """GPTNeoXJapaneseTokenizer is registered and no longer NOT_BUILT."""
    assert set(CLASSES) <= set(own_files.OWN_FILES_CLASSES)
    assert not set(CLASSES) & set(classes.NOT_BUILT)


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_class_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines, SAMPLES (tags, symbols, emoji, content to clean), lines holding each special token, and
    pairs agree."""
    auto, ours = loaded[kind]
    lines = lines_for(auto)
    pairs = list(zip(lines[:4], lines[-8:-4]))
    differing = differences(auto, ours, lines, pairs)
    assert differing == [], f"{kind}: {len(differing)}/{len(lines) + len(pairs)} differ: {differing[:3]}"


def test_variants_share_an_id_and_read_back_as_the_first(loaded: dict) -> None:
    """慶應 takes 慶応's id and decodes as 慶応; a byte of a character without an entry reads as U+FFFD, and a byte
    without its token is the unknown token."""
    auto, ours = loaded["neox-japanese"]
    ids = ours.encode("慶應\u3000貓").ids
    assert ids == auto("慶應\u3000貓")["input_ids"]
    assert ours.decode(ids) == auto.decode(ids) == "慶応 猫"
    assert auto.convert_ids_to_tokens(ours.encode("\U0001f9e0").ids) == ours.encode("\U0001f9e0").tokens == \
        ["<|endoftext|>"] + ["\ufffd"] * 3


def test_loading_warns_of_nothing(directories: dict) -> None:
    """A GPTNeoXJapanese directory loads without a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(directories["neox-japanese-clean"])
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("kind", ["neox-japanese", "neox-japanese-clean"])
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, kind: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[kind], text)
    assert actual == expected


def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path) -> None:
    """No tokenizer.json holds the segmentation: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder): "):
        loaded["neox-japanese"][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize(("damage", "message"), [
    ({"vocab.txt": None}, "vocab.txt: the class reads this file and it is missing"),
    ({"emoji.json": None}, "emoji.json: the class reads this file and it is missing"),
    ({"emoji.json": "{"}, "emoji.json: not valid JSON"),
    ({"vocab.txt": b"a\n\xff\n"}, "vocab.txt: not UTF-8"),
])
def test_damaged_files_are_refused_as_transformers_refuses_them(tmp_path: Path, damage: dict, message: str) -> None:
    """A missing or damaged file: AutoTokenizer fails to load the directory, hfcompat raises a FormatError naming
    the file and what is wrong."""
    path = write_directory(tmp_path / "damaged", {}, ["a", "<|endoftext|>"])
    damage_files(path, damage)
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match=message):
        hfcompat.load(path)


@pytest.mark.parametrize("line", ["<|byte300|>", "<|emoji9|>"])
def test_an_id_without_text_fails_to_decode_as_in_transformers(tmp_path: Path, line: str) -> None:
    """A byte token naming no byte, or an emoji tag emoji.json does not name, makes transformers fail to read
    that id back; hfcompat loads the directory, encodes alike and raises TokenizationError there."""
    path = write_directory(tmp_path / "odd", {}, ["a", "<|endoftext|>", line])
    auto, ours = auto_tokenizer(path), hfcompat.load(path)
    assert auto("aa")["input_ids"] == ours.encode("aa").ids == [0, 0]
    with pytest.raises(Exception):
        auto.decode([2])
    with pytest.raises(TokenizationError, match=line.replace("|", r"\|")):
        ours.decode([2])
