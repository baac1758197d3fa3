"""transformers' classes that build their vocabulary by a rule and read no file (ByT5Tokenizer,
PerceiverTokenizer, CanineTokenizer, DiaTokenizer): hfcompat.load(dir)
against AutoTokenizer on the directory the class's save_pretrained writes and on one holding only a
tokenizer_config.json naming the class.

transformers runs these as Python tokenizers (no .tokens()), so token strings come from convert_ids_to_tokens.
Compared per text: ids, tokens, decode with skip_special_tokens both ways; pairs: ids and type ids.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import hfcompat
from hfcompat.errors import UnsupportedConversion
from hfcompat.formats.transformers import classes
from tests.conformance.test_hypothesis import texts

from .auto_harness import auto_tokenizer, transformers
from .test_class_table import corpus_texts

pytestmark = pytest.mark.conformance

# Each class with the options of a second, bare directory (the first is the class's own save_pretrained).
BARE_CONFIGS: dict[str, dict[str, Any]] = {
    "ByT5Tokenizer": {"extra_ids": 3, "eos_token": "<eos>"},
    "PerceiverTokenizer": {"cls_token": "<cls>", "mask_token": "[M]"},
    "CanineTokenizer": {"sep_token": "[SEP]"},
    "DiaTokenizer": {"offset": 3},
}


def class_directories(root: Path, name: str) -> dict[str, Path]:
    """The class's save_pretrained directory and a bare tokenizer_config.json naming it (with other options)."""
    saved = root / f"{name}-saved"
    getattr(transformers, name)().save_pretrained(str(saved))
    bare = root / f"{name}-bare"
    bare.mkdir()
    (bare / "tokenizer_config.json").write_text(json.dumps({"tokenizer_class": name, **BARE_CONFIGS[name]}),
                                                encoding="utf-8")
    return {"saved": saved, "bare": bare}


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[Any, Any]]:
    """(class, directory kind) -> (AutoTokenizer, hfcompat tokenizer) of the same directory."""
    root = tmp_path_factory.mktemp("byte-classes")
    return {(name, kind): (auto_tokenizer(path), hfcompat.load(path))
            for name in sorted(classes.BY_RULE_CLASSES) for kind, path in class_directories(root, name).items()}


def expected_and_actual(auto: Any, ours: Any, text: str) -> tuple[tuple, tuple]:
    """(ids, tokens, decode, decode skipping specials) of both libraries."""
    ids = auto(text)["input_ids"]
    encoding = ours.encode(text)
    return ((ids, auto.convert_ids_to_tokens(ids), auto.decode(ids), auto.decode(ids, skip_special_tokens=True)),
            (encoding.ids, encoding.tokens, ours.decode(ids, skip_special_tokens=False),
             ours.decode(ids, skip_special_tokens=True)))


def agree(expected: tuple, actual: tuple) -> bool:
    """True when both libraries' fields are equal."""
    return expected == actual


def both_loaded(directories: dict[str, Path]) -> dict[str, tuple[Any, Any]]:
    """kind -> (AutoTokenizer, hfcompat tokenizer) of each directory, loading warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {kind: (auto_tokenizer(path), hfcompat.load(path)) for kind, path in directories.items()}


def damage_files(path: Path, damage: dict[str, str | bytes | None]) -> None:
    """Remove (None) or overwrite (text or bytes) the named files of a directory."""
    for file_name, content in damage.items():
        if content is None:
            (path / file_name).unlink()
        elif isinstance(content, bytes):
            (path / file_name).write_bytes(content)
        else:
            (path / file_name).write_text(content, encoding="utf-8")


def differences(auto: Any, ours: Any, lines: list[str], pairs: list[tuple[str, str]]) -> list[str]:
    """The lines whose fields differ (expected_and_actual) and the pairs whose ids or type ids differ."""
    differing = [text for text in lines if not agree(*expected_and_actual(auto, ours, text))]
    for first, second in pairs:
        result = auto(first, second, return_token_type_ids=True)
        encoding = ours.encode(first, second)
        if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
            differing.append(f"pair {first[:20]!r} {second[:20]!r}")
    return differing


def test_every_class_built_by_rule_is_checked() -> None:
    """Each class built by rule has its bare directory here."""
    assert set(BARE_CONFIGS) == classes.BY_RULE_CLASSES


@pytest.mark.filterwarnings("ignore:This sequence already has")
@pytest.mark.parametrize("kind", ["saved", "bare"])
@pytest.mark.parametrize("name", sorted(classes.BY_RULE_CLASSES))
def test_class_matches_auto(loaded: dict, backend: str, name: str, kind: str) -> None:
    """Corpus lines (English, Japanese, Chinese), lines holding each special token, and pairs agree."""
    auto, ours = loaded[name, kind]
    specials = [token for token in auto.all_special_tokens if token][:6]
    lines = corpus_texts() + [f"Hello {token}world{token} x  {token} " for token in specials] + \
        [f"{specials[0]}ab{specials[-1]}", f"\x1f{specials[0]}\x1c x", "[S1] hé [S2]\x01\x02", "\x00 é\u3000\U0001f600 ", ""]
    differing = [text for text in lines if not agree(*expected_and_actual(auto, ours, text))]
    for first, second in zip(lines[:3], lines[-4:]):
        result = auto(first, second, return_token_type_ids=True)
        encoding = ours.encode(first, second)
        if (result["input_ids"], result["token_type_ids"]) != (encoding.ids, encoding.type_ids):
            differing.append(f"pair {first[:20]!r} {second[:20]!r}")
    assert differing == [], f"{name} {kind}: {len(differing)}/{len(lines) + 3} differ: {differing[:3]}"


@pytest.mark.filterwarnings("ignore:This sequence already has")
@pytest.mark.parametrize("name", sorted(classes.BY_RULE_CLASSES))
@settings(max_examples=60, deadline=None)
@given(text=texts)
def test_random_text(loaded: dict, name: str, text: str) -> None:
    """Random Unicode: ids, tokens and both decodes agree."""
    expected, actual = expected_and_actual(*loaded[name, "saved"], text)
    assert actual == expected


@pytest.mark.parametrize(("name", "offset", "text"), [("ByT5Tokenizer", 3, "e</s>é"),
                                                      ("PerceiverTokenizer", 6, "\ufffde[PAD]é\ufffd")])
def test_decode_of_invalid_bytes_as_transformers(loaded: dict, name: str, offset: int, text: str) -> None:
    """A cut sequence and a byte that starts none vanish (ByT5) or become U+FFFD (Perceiver), as in transformers."""
    auto, ours = loaded[name, "saved"]
    ids = [0xE6 + offset, 0x97 + offset, ord("e") + offset, 1 if offset == 3 else 0, 0xC3 + offset, 0xA9 + offset,
           0xFF + offset]
    assert ours.decode(ids, skip_special_tokens=False) == auto.decode(ids) == text


@pytest.mark.parametrize("name", sorted(classes.BY_RULE_CLASSES))
def test_saving_as_tokenizer_json_is_refused(loaded: dict, tmp_path: Path, name: str) -> None:
    """No tokenizer.json holds the rule: saving names the component instead of writing a file."""
    with pytest.raises(UnsupportedConversion, match="^(model|decoder|post_processor): "):
        loaded[name, "saved"][1].save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()
