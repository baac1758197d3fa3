"""hfcompat.models.vocab_files against tokenizers' own readers (BPE.read_file, WordPiece.read_file)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import shared_file
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import models

from hfcompat.errors import FormatError, UnsupportedConversion
from hfcompat import files as atomic
from hfcompat.models.vocab_files import (
    read_merges_txt,
    read_vocab_json,
    read_vocab_txt,
    write_merges_txt,
    write_vocab_json,
    write_vocab_txt,
)

EMPTY_VOCAB = '{"a": 0}'


def write_bytes(path: Path, data: str | bytes) -> Path:
    """Write raw text (no newline translation) or bytes, and return the path."""
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def hf_bpe_files(vocab: Path, merges: Path):
    """tokenizers' reading of a vocab.json + merges.txt pair: (vocab, merges)."""
    return models.BPE.read_file(str(vocab), str(merges))


# ----- real files ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gpt2", "clip", "roberta-base"])
def test_real_vocab_json_and_merges_txt(name):
    vocab, merges = shared_file(f"refs/{name}/vocab.json"), shared_file(f"refs/{name}/merges.txt")
    hf_vocab, hf_merges = hf_bpe_files(vocab, merges)
    assert read_vocab_json(vocab) == hf_vocab
    assert read_merges_txt(merges) == hf_merges


@pytest.mark.parametrize("name", ["bert-base-uncased", "bert-base-cased", "bert-base-multilingual-cased",
                                  "bert-base-chinese"])
def test_real_vocab_txt(name):
    path = shared_file(f"refs/{name}/vocab.txt")
    assert read_vocab_txt(path) == models.WordPiece.read_file(str(path))


# ----- merges.txt rules --------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "#version: 0.2\na b\nb c\n",
    "a b\nb c",                              # no header, no final newline
    "#version: 0.2\r\na b\r\nab c\r\n",      # CRLF
    "a b\r",                                 # a final \r without \n stays in the token
    "#version: 0.2\na b\n#version again\nb c\n",  # #version lines are skipped anywhere
    "#not a version b\n",                    # other # lines are merges
    "",
    "\n",                                    # one empty line: an error, checked below
    "a  b\n",
    "a b c\n",
    "a b\n\nb c\n",
    "é 日\n🤗 x\n",
])
def test_merges_txt_lines_as_hf_reads_them(tmp_path, text):
    vocab = write_bytes(tmp_path / "vocab.json", EMPTY_VOCAB)
    merges = write_bytes(tmp_path / "merges.txt", text)
    try:
        expected = hf_bpe_files(vocab, merges)[1]
    except Exception:
        with pytest.raises(FormatError):
            read_merges_txt(merges)
    else:
        assert read_merges_txt(merges) == expected


def test_bad_merges_line_names_the_file_and_line(tmp_path):
    merges = write_bytes(tmp_path / "merges.txt", "#version: 0.2\na b\nb c d\n")
    with pytest.raises(FormatError, match="line 3") as error:
        read_merges_txt(merges)
    assert error.value.path == str(merges)
    with pytest.raises(Exception, match="Merges text file invalid"):
        hf_bpe_files(write_bytes(tmp_path / "vocab.json", EMPTY_VOCAB), merges)


# ----- vocab.json rules --------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    '{"a": 0, "b": 1}',
    '{"a": 0, "b": "x", "c": true, "d": null, "e": [1], "f": 3}',  # non-numbers are skipped
    '{"a": 0, "a": 5}',                                            # a repeated key keeps the last
    '{"\\u00e9": 1, "Ġ": 2}',
    '{"a": -1}',
    '{"a": 1.5}',
    '{"a": 1.0}',
    '["a", "b"]',
    '"a"',
    "{not json",
    "",
])
def test_vocab_json_as_hf_reads_it(tmp_path, text):
    vocab = write_bytes(tmp_path / "vocab.json", text)
    merges = write_bytes(tmp_path / "merges.txt", "")
    try:
        expected = hf_bpe_files(vocab, merges)[0]
    except Exception:
        with pytest.raises(FormatError) as error:
            read_vocab_json(vocab)
        assert error.value.path == str(vocab)
    else:
        assert read_vocab_json(vocab) == expected


def test_missing_and_undecodable_files(tmp_path):
    for reader in (read_vocab_json, read_merges_txt, read_vocab_txt):
        with pytest.raises(FormatError, match="cannot read") as error:
            reader(tmp_path / "absent")
        assert error.value.path == str(tmp_path / "absent")
        with pytest.raises(FormatError, match="UTF-8"):
            reader(write_bytes(tmp_path / "latin1", b"a\xe9 b\n"))
    with pytest.raises(Exception):
        models.WordPiece.read_file(str(tmp_path / "latin1"))


# ----- vocab.txt rules ---------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "[PAD]\n[UNK]\nhello\n##lo\n",
    "a \n\u3000b\u3000\n\x1c\nc\x1c\n\nd\r\ne\r\r\na\n",  # trailing White_Space only; repeats keep the last
    "a\tb\t\nno newline at end",
    "x\u2028\ny\u0085\nz\u00a0\nw\u200b\n",
    "",
    "\n\n",
])
def test_vocab_txt_as_hf_reads_it(tmp_path, text):
    path = write_bytes(tmp_path / "vocab.txt", text)
    assert read_vocab_txt(path) == models.WordPiece.read_file(str(path))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_random_vocab_txt(tmp_path_factory, text):
    path = write_bytes(tmp_path_factory.mktemp("v") / "vocab.txt", text)
    assert read_vocab_txt(path) == models.WordPiece.read_file(str(path))


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab #\r\nversioné"), max_size=60))
def test_random_merges_txt(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("m")
    vocab = write_bytes(folder / "vocab.json", EMPTY_VOCAB)
    merges = write_bytes(folder / "merges.txt", text)
    try:
        expected = hf_bpe_files(vocab, merges)[1]
    except Exception:
        with pytest.raises(FormatError):
            read_merges_txt(merges)
    else:
        assert read_merges_txt(merges) == expected


# ----- writing ------------------------------------------------------------------------------


def test_written_bpe_files_equal_what_hf_saves(tmp_path):
    vocab = {"<unk>": 0, "a": 1, "b": 2, "ab": 3, "é\"\\\n\x01\x7f": 4, "Ġ日": 5, "abb": 6, "Ġ日a": 7}
    merges = [("a", "b"), ("ab", "b"), ("Ġ日", "a")]
    (tmp_path / "hf").mkdir()
    models.BPE(vocab, merges).save(str(tmp_path / "hf"))
    write_vocab_json(tmp_path / "vocab.json", dict(reversed(list(vocab.items()))))
    write_merges_txt(tmp_path / "merges.txt", merges)
    assert (tmp_path / "vocab.json").read_bytes() == (tmp_path / "hf" / "vocab.json").read_bytes()
    assert (tmp_path / "merges.txt").read_bytes() == (tmp_path / "hf" / "merges.txt").read_bytes()
    assert hf_bpe_files(tmp_path / "vocab.json", tmp_path / "merges.txt") == (vocab, merges)


def test_written_vocab_txt_reads_back_in_hf(tmp_path):
    vocab = {"[PAD]": 0, "[UNK]": 1, "hello": 2, "##lo": 3, "日本": 4, " lead": 5}
    write_vocab_txt(tmp_path / "vocab.txt", vocab)
    assert models.WordPiece.read_file(str(tmp_path / "vocab.txt")) == vocab


@pytest.mark.parametrize("vocab", [{"a": 0, "b": 2}, {"a": 0, "b": 0}, {"a ": 0}, {"a\nb": 0}])
def test_vocab_txt_refuses_what_it_cannot_hold(tmp_path, vocab):
    with pytest.raises(UnsupportedConversion):
        write_vocab_txt(tmp_path / "vocab.txt", vocab)
    assert not (tmp_path / "vocab.txt").exists()


@pytest.mark.parametrize("merge", [("a", "b c"), ("a\nb", "c"), ("a", "b\r"), ("#version", "x")])
def test_merges_txt_refuses_what_would_not_read_back(tmp_path, merge):
    with pytest.raises(UnsupportedConversion):
        write_merges_txt(tmp_path / "merges.txt", [merge])
    assert not (tmp_path / "merges.txt").exists()


def test_odd_but_valid_merges_read_back_in_hf(tmp_path):
    merges = [("a", ""), ("", "b"), ("#", "version"), ("a\r", "b"), ("\t", "\x0b")]
    write_merges_txt(tmp_path / "merges.txt", merges)
    vocab = write_bytes(tmp_path / "vocab.json", EMPTY_VOCAB)
    assert hf_bpe_files(vocab, tmp_path / "merges.txt")[1] == merges


def test_writes_are_atomic(tmp_path, monkeypatch):
    target = tmp_path / "vocab.json"
    target.write_text("old", encoding="utf-8")

    def failing_replace(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        write_vocab_json(target, {"a": 0})
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["vocab.json"]
