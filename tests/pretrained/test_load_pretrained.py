"""hfcompat.load(dir) on directories transformers reads and writes: identical to AutoTokenizer.

Directories hold slow files or a tokenizer.json with a tokenizer_config.json naming a class
(made in tests/pretrained/directories.py); each is also loaded by AutoTokenizer and written back
by transformers' own save_pretrained, and that directory is compared too. SentencePiece models
follow sentencepiece (their owner library), with a warning where transformers' class differs.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import hfcompat
from hfcompat.errors import FormatError
from tests.conftest import shared_dir

from .auto_harness import auto_tokenizer, compare_auto, transformers
from .directories import FROM_JSON, SLOW, json_directory, saved_by_transformers, slow_directory
from .test_save_pretrained import sample_texts

pytestmark = pytest.mark.conformance

SENTENCEPIECE_SLOW = {"llama", "albert", "xlnet"}
WORD_SLOW = [name for name in SLOW if name not in SENTENCEPIECE_SLOW]
# Classes whose pipeline hfcompat does not rebuild: it follows tokenizer.json and says so.
FOLLOWS_FILE: set[str] = set()


def load_quietly(directory: Path) -> tuple[hfcompat.Tokenizer, list[str]]:
    """hfcompat.load(directory) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tokenizer = hfcompat.load(directory)
    return tokenizer, [str(w.message) for w in caught]


def check_same_as_auto(directory: Path, label: str) -> list[str]:
    """hfcompat.load and AutoTokenizer on one directory agree on every request; returns the warnings."""
    ours, messages = load_quietly(directory)
    tally = compare_auto(auto_tokenizer(directory), ours, sample_texts(), label)
    tally.assert_clean()
    return messages


@pytest.mark.parametrize("name", WORD_SLOW)
def test_slow_files_directory(tmp_path: Path, name: str) -> None:
    """vocab.txt or vocab.json + merges.txt with a config: the class's pipeline, as AutoTokenizer builds it."""
    directory = slow_directory(shared_dir() / "refs", name, tmp_path / name)
    assert check_same_as_auto(directory, f"{name} (slow files)") == []


@pytest.mark.parametrize("name", list(SLOW))
def test_directory_saved_by_transformers(tmp_path: Path, name: str) -> None:
    """AutoTokenizer on slow files, written back by transformers (tokenizer.json + config)."""
    source = slow_directory(shared_dir() / "refs", name, tmp_path / "slow")
    directory, _ = saved_by_transformers(source, tmp_path / "saved")
    messages = check_same_as_auto(directory, f"{name} (saved by transformers)")
    assert bool(messages) == (name in FOLLOWS_FILE), messages


@pytest.mark.parametrize("name", list(FROM_JSON))
def test_tokenizer_json_with_a_class(tmp_path: Path, name: str) -> None:
    """tokenizer.json + a config naming a class that rebuilds the pipeline (or takes the file as is)."""
    directory = json_directory(shared_dir() / "refs", name, tmp_path / name)
    check_same_as_auto(directory, name)


def test_class_pipeline_wins_over_the_file(tmp_path: Path) -> None:
    """BertTokenizer with do_lower_case=false rebuilds its normalizer even if tokenizer.json lowercases."""
    source = slow_directory(shared_dir() / "refs", "bert-uncased", tmp_path / "slow")
    directory, _ = saved_by_transformers(source, tmp_path / "saved")
    config_path = directory / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config["do_lower_case"] = False
    config_path.write_text(json.dumps(config))
    ours = hfcompat.load(directory)
    assert ours.encode("Hello WORLD", add_special_tokens=False).tokens != ["hello", "world"]
    check_same_as_auto(directory, "bert tokenizer.json, cased config")


@pytest.mark.parametrize("name", sorted(SENTENCEPIECE_SLOW))
def test_sentencepiece_directory_follows_sentencepiece(tmp_path: Path, name: str) -> None:
    """A .model with a config: identical to sentencepiece itself, with a warning where transformers differs."""
    sentencepiece = pytest.importorskip("sentencepiece")
    directory = slow_directory(shared_dir() / "refs", name, tmp_path / name)
    ours, messages = load_quietly(directory)
    model = next(directory.glob("*.model"))
    processor = sentencepiece.SentencePieceProcessor(model_file=str(model))
    texts = sample_texts() + ["Hello  You", "a   b", "  leading"]
    differing = [t for t in texts if ours.encode(t, add_special_tokens=False).ids != processor.encode(t)]
    assert differing == [], differing[:3]
    assert messages, "transformers' conversion differs from sentencepiece here: a warning must say so"


# A SentencePiece model under no class, TokenizersBackend, or a class transformers does not know: it loads
# TokenizersBackend, whose conversion follows the model's own settings since transformers 5.24.
AS_IS_MODELS = {
    "llama2-no-class": ("llama2/tokenizer.model", {}),
    "albert-backend": ("albert/spiece.model", {"tokenizer_class": "TokenizersBackend"}),
    "xlnet-unknown-class": ("xlnet/spiece.model", {"tokenizer_class": "MadeUpTokenizerFast"}),
}
BEFORE_5_24 = tuple(int(part) for part in transformers.__version__.split(".")[:2]) < (5, 24)


@pytest.mark.skipif(BEFORE_5_24, reason="transformers 5.23 converts a .model under TokenizersBackend without "
                    "its normalizer spec (1-2 lines of 124 as sentencepiece); 5.24 follows the model")
@pytest.mark.parametrize("name", list(AS_IS_MODELS))
def test_sentencepiece_model_without_a_class(tmp_path: Path, name: str) -> None:
    """A .model transformers loads as TokenizersBackend: identical to AutoTokenizer, and no warning."""
    relative, config = AS_IS_MODELS[name]
    tmp_path.joinpath("tokenizer.model").write_bytes((shared_dir() / "refs" / relative).read_bytes())
    tmp_path.joinpath("tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    assert check_same_as_auto(tmp_path, name) == []


def test_directory_without_tokenizer_files(tmp_path: Path) -> None:
    """A config alone is a FormatError naming the directory and what was looked for."""
    (tmp_path / "tokenizer_config.json").write_text('{"tokenizer_class": "BertTokenizer"}')
    with pytest.raises(FormatError, match="no tokenizer.json, vocab.txt"):
        hfcompat.load(tmp_path)


def test_malformed_config(tmp_path: Path) -> None:
    """A broken tokenizer_config.json names the file."""
    (tmp_path / "tokenizer_config.json").write_text("{not json")
    with pytest.raises(FormatError, match="tokenizer_config.json"):
        hfcompat.load(tmp_path)


def test_save_then_load_keeps_roles_and_template(tmp_path: Path) -> None:
    """hfcompat's own directory reads back with its special-token roles and chat template."""
    ours = hfcompat.load(shared_dir() / "refs" / "bert-base-cased" / "vocab.txt", lowercase=False)
    ours.chat_template = "{{ messages }}"
    ours.save_pretrained(tmp_path)
    again = hfcompat.load(tmp_path)
    assert again.chat_template == "{{ messages }}"
    assert again.named_special_tokens["mask_token"] == "[MASK]"
    assert again.to_str() == ours.to_str()


def test_unknown_class_over_slow_files_builds_bert_and_warns(tmp_path: Path) -> None:
    """vocab.txt under a class hfcompat does not know: BertTokenizer's pipeline, and a warning."""
    directory = slow_directory(shared_dir() / "refs", "bert-uncased", tmp_path / "d")
    (directory / "tokenizer_config.json").write_text('{"tokenizer_class": "MyOwnTokenizer"}')
    ours, messages = load_quietly(directory)
    assert any("MyOwnTokenizer" in m and "BertTokenizer" in m for m in messages), messages
    plain = hfcompat.load(shared_dir() / "refs" / "bert-base-uncased" / "vocab.txt")
    assert ours.encode("Hello, WORLD [MASK]!").ids == plain.encode("Hello, WORLD [MASK]!").ids


def test_clean_up_spaces_config_is_announced(tmp_path: Path) -> None:
    """A config asking transformers to clean up decoded spaces: hfcompat says its decode does not."""
    directory = slow_directory(shared_dir() / "refs", "bert-uncased", tmp_path / "d")
    (directory / "tokenizer_config.json").write_text(
        '{"tokenizer_class": "BertTokenizer", "clean_up_tokenization_spaces": true}')
    _, messages = load_quietly(directory)
    assert any("clean_up_tokenization_spaces" in m for m in messages), messages
