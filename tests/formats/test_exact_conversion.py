"""Saving never drops state silently (issue 32): a charsmap applied SentencePiece's way or tokenizers'
way, and Unigram scores added in float32 or float64, are refused by a format that would run them the
other way, with a text that shows it; `exact=False` (CLI `--inexact`) writes the nearest file and warns.

Each refusal's text is checked with the owners: sentencepiece on the original .model against
tokenizers on the nearest tokenizer.json, and the reverse for T5's tokenizer.json written as .model.
"""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

import hfcompat
from hfcompat.cli import run
from hfcompat.formats.lost_state import SENTENCEPIECE, TOKENIZER_JSON, lost_in

from conftest import shared_file

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

ALBERT = "refs/albert/spiece.model"
T5_JSON = "refs/t5/tokenizer.json"


def _quoted_texts(message: str) -> list[str]:
    """The texts a refusal shows ("differ on 'X'", "segment 'X'"), as Python literals."""
    return [ast.literal_eval(literal) for literal in re.findall(r"(?:differ on|segment) ('(?:[^'\\]|\\.)*')", message)]


def _inexact(action) -> tuple[object, str]:
    """Run `action` expecting one InexactConversion warning; (its result, the warning's text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    messages = [str(w.message) for w in caught if issubclass(w.category, hfcompat.InexactConversion)]
    assert len(messages) == 1, messages
    return result, messages[0]


def test_albert_to_tokenizer_json_is_refused_naming_both_losses(tmp_path: Path) -> None:
    """ALBERT's .model as tokenizer.json: the charsmap and the float32 sums are named, nothing is written."""
    tokenizer = hfcompat.load(shared_file(ALBERT))
    target = tmp_path / "tokenizer.json"
    with pytest.raises(hfcompat.UnsupportedConversion) as refusal:
        tokenizer.save(str(target))
    message = str(refusal.value)
    assert "normalizer: tokenizer.json applies the charsmap as tokenizers'" in message
    assert "model: Unigram adds path scores in float32 and tokenizer.json in float64" in message
    assert not target.exists()
    with pytest.raises(hfcompat.UnsupportedConversion):
        tokenizer.to_str()
    with pytest.raises(hfcompat.UnsupportedConversion):
        hfcompat.convert(shared_file(ALBERT), tmp_path / "saved")  # a transformers directory
    assert not (tmp_path / "saved" / "tokenizer.json").exists()


def test_refusal_texts_differ_between_the_owners(tmp_path: Path) -> None:
    """The texts ALBERT's refusal shows: sentencepiece on the .model and tokenizers on the nearest
    tokenizer.json give different ids (the refusal is not a guess)."""
    path = shared_file(ALBERT)
    tokenizer = hfcompat.load(path)
    texts = _quoted_texts("; ".join(lost_in(tokenizer, TOKENIZER_JSON)))
    assert len(texts) == 2
    nearest, _ = _inexact(lambda: tokenizer.to_str(exact=False))
    oracle = tokenizers.Tokenizer.from_str(nearest)
    sp = spm.SentencePieceProcessor(model_file=str(path))
    for text in texts:
        text = text.lstrip("\u2581")  # the sums' text is a pre-token: the word, after Metaspace
        assert oracle.encode(text, add_special_tokens=False).ids != sp.encode(text), text
        assert tokenizer.encode(text, add_special_tokens=False).ids == sp.encode(text), text


def test_t5_json_to_model_is_refused_and_its_texts_differ(tmp_path: Path) -> None:
    """T5's tokenizer.json as .model: sentencepiece would apply the charsmap by longest match and sum in
    float32; refused, and with exact=False the written .model differs from tokenizers on those texts."""
    source = shared_file(T5_JSON)
    target = tmp_path / "t5.model"
    with pytest.raises(hfcompat.UnsupportedConversion, match="SentencePiece .model applies the charsmap"):
        hfcompat.convert(source, target)
    assert not target.exists()
    _, message = _inexact(lambda: hfcompat.convert(source, target, exact=False))
    texts = _quoted_texts(message)
    assert len(texts) == 2
    sp = spm.SentencePieceProcessor(model_file=str(target))
    oracle = tokenizers.Tokenizer.from_file(str(source))
    for text in texts:
        text = text.lstrip("\u2581")
        assert oracle.encode(text, add_special_tokens=False).ids != sp.encode(text), text


def test_exact_false_warns_what_the_refusal_says(tmp_path: Path) -> None:
    """save, to_str and convert with exact=False write the nearest file and warn the refusal's own text."""
    path = shared_file(ALBERT)
    tokenizer = hfcompat.load(path)
    with pytest.raises(hfcompat.UnsupportedConversion) as refusal:
        tokenizer.save(str(tmp_path / "refused.json"))
    reason = str(refusal.value).split(" (exact=False")[0]
    _, warned = _inexact(lambda: tokenizer.save(str(tmp_path / "tokenizer.json"), exact=False))
    assert warned == f"the file written differs: {reason}"
    assert tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json")).get_vocab_size() == 30000
    text, warned = _inexact(lambda: tokenizer.to_str(exact=False))
    assert warned.endswith(reason) and tokenizers.Tokenizer.from_str(text).get_vocab_size() == 30000
    _, warned = _inexact(lambda: hfcompat.convert(path, tmp_path / "saved", exact=False))
    assert warned.endswith(reason) and (tmp_path / "saved" / "tokenizer.json").exists()


def test_the_warning_names_the_callers_line(tmp_path: Path) -> None:
    """The warning points at the user's call, not inside hfcompat."""
    tokenizer = hfcompat.load(shared_file(ALBERT))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tokenizer.to_str(exact=False)
    assert caught[0].filename == __file__


def test_cli_inexact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`hfcompat convert` refuses (exit 2, the reason on stderr); `--inexact` writes with a warning line."""
    source = str(shared_file(ALBERT))
    target = tmp_path / "tokenizer.json"
    assert run(["convert", source, str(target)]) != 0
    assert "normalizer: tokenizer.json applies the charsmap" in capsys.readouterr().err
    assert not target.exists()
    assert run(["convert", source, str(target), "--inexact"]) == 0
    captured = capsys.readouterr()
    assert "hfcompat: warning: the file written differs: normalizer:" in captured.err
    assert target.exists()


@pytest.mark.parametrize("source", ["refs/llama2/tokenizer.model", T5_JSON])
def test_no_loss_no_refusal(source: str, tmp_path: Path) -> None:
    """Llama 2's .model (identity charsmap, BPE) to tokenizer.json, T5's tokenizer.json to itself: nothing is
    lost, nothing warned."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", hfcompat.InexactConversion)
        hfcompat.convert(shared_file(source), tmp_path / "tokenizer.json")


def test_a_model_read_from_a_model_loses_nothing_as_model() -> None:
    """A .model's tokenizer runs as sentencepiece: written as .model nothing differs."""
    assert lost_in(hfcompat.load(shared_file(ALBERT)), SENTENCEPIECE) == []
