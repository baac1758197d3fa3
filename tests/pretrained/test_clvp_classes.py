"""transformers' ClvpTokenizer: hfcompat.load(dir) against AutoTokenizer on directories of the vocab.json and
merges.txt it reads.

A byte-level BPE is learned here with tokenizers from the English corpus lines and the fixture (symbols seen
there and the lead byte 0xC3 only, so other bytes meet [UNK]; no "[SPACE]" entry, so a lone "Ġ" stays), the
directory transformers' save_pretrained writes from it, one with other roles, errors="ignore" and the class's clean-up, and, with
../shared, GPT-2's vocabulary and merges with "[SPACE]" "[STOP]" "[UNK]" after them (a lone "Ġ" is "[SPACE]",
clean-up on, as CLVP's own files have). The texts hold numbers, money, ordinals, years, decimals and
abbreviations the cleaning spells out, runs of whitespace, non-ASCII (dropped), and the special tokens.
transformers runs the class as a Python tokenizer (no .tokens()), so token strings come from
convert_ids_to_tokens. Compared per text: ids, tokens, decode with skip_special_tokens both ways; pairs: ids
and type ids.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import FormatError, TokenizationError, UnsupportedConversion
from hfcompat.formats.transformers import classes, own_files
from hfcompat.formats.transformers.clvp import CLASSES
from tests.conformance.test_hypothesis import texts
from tests.conftest import SHARED, corpus_sample, fixture_lines

from .auto_harness import auto_tokenizer
from .test_byte_classes import both_loaded, damage_files, differences, expected_and_actual

tokenizers = pytest.importorskip("tokenizers")
pytestmark = pytest.mark.conformance

VOCAB_SIZE = 600
NUMBER_TEXTS = [
    "Mr. Smith paid $3.50 on the 21st of May, 1999; Mrs. Jones paid $1 and $0.01, Dr. Who $1,000,000.",
    "In 2005, 2000 and 1900 the St. Louis Co. Ltd. sold 3.14 kg for 12th place; Capt. Hook, Esq., Lt. Gen. X.",
    "Numbers: 0 7 13 42 100 101 999 1000 1001 2999 3000 12345 1234567 1,234,567 99999999999999999999 0th 11th 112nd",
    "$5. $.5 $1.2.3 1.2.3 £20 \"quoted\" ‘curly’ café — naïve 東京 tab\there\n\nnew  lines   ",
    "FT. Worth, sgt. Pepper's HON. REV. Drs. Jr. MAJ. COL. st.x mr.smith I'll we've they're it's",
]


def corpus_lines() -> list[str]:
    """English and Japanese corpus lines, when ../shared is there."""
    try:
        return corpus_sample("botchan", 15) + corpus_sample("wagahaiwa", 3)
    except pytest.skip.Exception:
        return []


def learned_files(path: Path) -> None:
    """vocab.json ([UNK] first) and merges.txt of a byte-level BPE tokenizers learns from the English lines."""
    model = tokenizers.Tokenizer(tokenizers.models.BPE())
    model.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = tokenizers.trainers.BpeTrainer(vocab_size=VOCAB_SIZE, special_tokens=["[UNK]"], show_progress=False,
                                             initial_alphabet=["Ã"])  # a lead byte, for decode's errors mode
    english = [line.lower() for line in corpus_lines() + list(fixture_lines()) if line.isascii()]
    model.train_from_iterator(english + NUMBER_TEXTS[:2], trainer)
    saved = json.loads(model.to_str())["model"]
    (path / "vocab.json").write_text(json.dumps(saved["vocab"]), encoding="utf-8")
    merges = [" ".join(pair) if isinstance(pair, list) else pair for pair in saved["merges"]]
    (path / "merges.txt").write_text("#version: 0.2\n" + "".join(f"{merge}\n" for merge in merges), encoding="utf-8")


def write_config(path: Path, config: dict[str, Any]) -> Path:
    """A tokenizer_config.json naming ClvpTokenizer."""
    (path / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "ClvpTokenizer", **config}),
                                                encoding="utf-8")
    return path


def gpt2_directory(path: Path) -> Path | None:
    """GPT-2's files (../shared/refs/gpt2) with CLVP's [SPACE] [STOP] [UNK] after its tokens, or None."""
    gpt2 = SHARED / "refs" / "gpt2"
    if not (gpt2 / "vocab.json").exists():
        return None
    path.mkdir()
    vocab = json.loads((gpt2 / "vocab.json").read_text(encoding="utf-8"))
    for token in ("[SPACE]", "[STOP]", "[UNK]"):
        vocab[token] = len(vocab)
    (path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    shutil.copy(gpt2 / "merges.txt", path / "merges.txt")
    return write_config(path, {"clean_up_tokenization_spaces": True})


@pytest.fixture(scope="module")
def directories(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every directory compared, by kind."""
    root = tmp_path_factory.mktemp("clvp")
    found = {}
    for kind, config in (("clvp", {}), ("clvp-options", {"bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>",
                                                         "errors": "ignore", "clean_up_tokenization_spaces": True})):
        (root / kind).mkdir()
        learned_files(root / kind)
        found[kind] = write_config(root / kind, config)
    auto_tokenizer(found["clvp"]).save_pretrained(str(root / "clvp-saved"))
    found["clvp-saved"] = root / "clvp-saved"
    gpt2 = gpt2_directory(root / "clvp-gpt2")
    return {**found, **({"clvp-gpt2": gpt2} if gpt2 else {})}


@pytest.fixture(scope="module")
def loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    return both_loaded(directories)


def lines_for(auto: Any) -> list[str]:
    """Corpus and fixture lines, NUMBER_TEXTS, and lines holding each special token."""
    specials = [token for token in auto.all_special_tokens if token][:6]
    return corpus_lines() + list(fixture_lines()) + NUMBER_TEXTS + \
        [f"Hello {token}world{token} 42  {token} " for token in specials] + \
        [f"{specials[0]}Mr.{specials[-1]}", f" {specials[-1]}\n", " [SPACE] x", "\n", " ", "~^`|\x01"]


def test_the_class_is_built_and_checked() -> None:
    """ClvpTokenizer is registered and no longer NOT_BUILT."""
    assert set(CLASSES) <= set(own_files.OWN_FILES_CLASSES)
    assert not set(CLASSES) & set(classes.NOT_BUILT)


@pytest.mark.parametrize("kind", ["clvp", "clvp-options", "clvp-saved", "clvp-gpt2"])
def test_class_matches_auto(loaded: dict, backend: str, kind: str) -> None:
    """Corpus lines, number and abbreviation texts, lines holding each special token, and pairs agree."""
    if kind not in loaded:
        pytest.skip("../shared/refs/gpt2 is absent")
    auto, ours = loaded[kind]
    lines = lines_for(auto)
    pairs = list(zip(lines[:4], lines[-8:-4]))
    differing = differences(auto, ours, lines, pairs)
    assert differing == [], f"{kind}: {len(differing)}/{len(lines) + len(pairs)} differ: {differing[:3]}"


def test_lone_space_is_the_space_token_and_clean_up_reads_it(loaded: dict) -> None:
    """With [SPACE] in the vocabulary a lone "Ġ" takes its id, and decode with the class's clean-up turns it (and
    [STOP]) into a space and drops [UNK]; without it, "Ġ" stays."""
    if "clvp-gpt2" not in loaded:
        pytest.skip("../shared/refs/gpt2 is absent")
    auto, ours = loaded["clvp-gpt2"]
    text = "a  b [STOP] c [UNK]d"
    ids = ours.encode(text).ids
    assert ids == auto(text)["input_ids"] and auto.convert_tokens_to_ids("[SPACE]") in ids
    assert ours.decode(ids, skip_special_tokens=False) == auto.decode(ids) == "a b c d"
    made_auto, made = loaded["clvp"]
    assert made.encode("a b ").tokens == made_auto.convert_ids_to_tokens(made_auto("a b ")["input_ids"])
    assert made.encode("a b ").tokens[-1] == "Ġ"


def test_invalid_utf8_decodes_with_the_errors_mode(loaded: dict) -> None:
    """A cut UTF-8 sequence decodes to U+FFFD by default and vanishes with errors="ignore", as in transformers."""
    for kind, expected in (("clvp", "a\ufffd"), ("clvp-options", "a")):
        auto, ours = loaded[kind]
        ids = [auto.convert_tokens_to_ids("a"), auto.convert_tokens_to_ids("Ã")]
        assert ours.decode(ids, skip_special_tokens=False) == auto.decode(ids) == expected


def test_loading_warns_of_nothing(directories: dict) -> None:
    """A Clvp directory, clean-up on or off, loads without a warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hfcompat.load(directories["clvp"])
        hfcompat.load(directories["clvp-options"])
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize("kind", ["clvp", "clvp-options"])
@settings(max_examples=80, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, kind: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree (a number the class cannot read fails on both sides)."""
    auto, ours = loaded[kind]
    try:
        auto(text)
    except ValueError:
        with pytest.raises(TokenizationError):
            ours.encode(text)
        return
    expected, actual = expected_and_actual(auto, ours, text)
    assert actual == expected


def test_an_unreadable_amount_fails_as_in_transformers(loaded: dict) -> None:
    """"$1.,5" makes the class read ",5" as a number and fail; hfcompat raises TokenizationError there."""
    auto, ours = loaded["clvp"]
    with pytest.raises(ValueError):
        auto("pay $1.,5 now")
    with pytest.raises(TokenizationError, match="',5'"):
        ours.encode("pay $1.,5 now")


def test_vocabulary_without_unk_warns_and_refuses(directories: dict, tmp_path: Path) -> None:
    """transformers gives the id None to a piece outside a vocabulary lacking its unk token; hfcompat says so on
    loading and raises TokenizationError for such a text (and encodes the others alike)."""
    path = tmp_path / "no-unk"
    shutil.copytree(directories["clvp"], path)
    write_config(path, {"unk_token": "<unk>"})
    auto = auto_tokenizer(path)
    with pytest.warns(UserWarning, match="no '<unk>'"):
        ours = hfcompat.load(path)
    assert auto("a cab")["input_ids"] == ours.encode("a cab").ids
    assert None in auto("a \x01b")["input_ids"]
    with pytest.raises(TokenizationError, match="'<unk>'"):
        ours.encode("a \x01b")


def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path) -> None:
    """No tokenizer.json holds the cleaning: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|pre_tokenizer|decoder): "):
        loaded["clvp"][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


@pytest.mark.parametrize(("damage", "message"), [
    ({"merges.txt": None}, "merges.txt: the class reads this file and it is missing"),
    ({"vocab.json": "[1, 2]"}, "vocab.json: expected an object"),
    ({"vocab.json": b"\xff"}, "vocab.json: not UTF-8"),
])
def test_damaged_files_are_refused_as_transformers_refuses_them(tmp_path: Path, damage: dict, message: str) -> None:
    """A missing or damaged file: AutoTokenizer fails to load the directory, hfcompat raises a FormatError naming
    the file and what is wrong."""
    path = tmp_path / "damaged"
    path.mkdir()
    (path / "vocab.json").write_text('{"a": 0, "b": 1, "ab": 2, "[UNK]": 3}', encoding="utf-8")
    (path / "merges.txt").write_text("#version: 0.2\na b\n", encoding="utf-8")
    write_config(path, {})
    damage_files(path, damage)
    with pytest.raises(Exception):
        auto_tokenizer(path)
    with pytest.raises(FormatError, match=message):
        hfcompat.load(path)
