"""GGUF (llama.cpp): the tokenizer of each of llama.cpp's test files encodes its test strings to the
ids the original Hugging Face tokenizer gives (the .out files), through hfcompat and through
`tokenizers` on the tokenizer.json hfcompat converts it to; GGUFs hfcompat writes read back with
the `gguf` package and encode as what they were written from."""

from __future__ import annotations

import dataclasses
import functools
import os
import struct
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

import pytest

import hfcompat
from hfcompat.errors import FormatError, MissingDependency, UnsupportedConversion
from hfcompat.formats.gguf import read as gguf_read
from hfcompat.formats.gguf.metadata import read_metadata
from hfcompat.formats.gguf.read import read_gguf_data
from hfcompat.formats.gguf.write import write_gguf_data

from conftest import SHARED, corpus_sample, fixture_texts, shared_file

gguf = pytest.importorskip("gguf", reason="the gguf package (the extra hfcompat[gguf], a test dependency) "
                                          "writes GGUF and is the oracle of reading it")
pytestmark = pytest.mark.conformance

SEPARATOR = "\n__ggml_vocab_test__\n"
GGUF_NAMES = ["bert-bge", "command-r", "deepseek-coder", "deepseek-llm", "falcon", "gpt-2", "llama-bpe", "llama-spm",
              "mpt", "phi-3", "qwen2", "qwen35", "refact", "starcoder"]
# gpt2 files without test strings and without the pre key: llama.cpp reads them with its 'default' splits.
NO_PRE_NAMES = ["aquila", "gpt-neox"]
# Shared files of models hfcompat does not read yet.
UNREAD_NAMES = ["baichuan", "gemma-4", "nomic-bert-moe"]
# Tokenizers of ../shared/refs that GGUF holds, and what it refuses (with a word of the reason).
WRITABLE = ["gpt2/tokenizer.json", "falcon/tokenizer.json", "llama2/tokenizer.model",
            "bert-base-uncased/vocab.txt", "t5/tokenizer.json"]
REFUSED = {"clip/tokenizer.json": "end_of_word_suffix", "roberta-base/tokenizer.json": "lstrip",
           "phi-3-mini/tokenizer.json": "rstrip", "albert/spiece.model": "charsmap",
           "tiktoken/cl100k_base.tiktoken": "no token has id"}


def cases_of(name: str) -> list[tuple[str, list[int]]]:
    """llama.cpp's test strings of one file and the ids the original tokenizer gives them."""
    path = shared_file(f"refs/gguf/ggml-vocab-{name}.gguf")
    texts = Path(f"{path}.inp").read_text(encoding="utf-8").split(SEPARATOR)
    texts[-1] = texts[-1].removesuffix(SEPARATOR.rstrip("\n") + "\n")
    if texts[-1] == "":
        texts.pop()
    ids = Path(f"{path}.out").read_text(encoding="utf-8").split("\n")[:len(texts)]
    assert len(texts) == len(ids) > 40
    return [(text, [int(i) for i in line.split()]) for text, line in zip(texts, ids)]


@functools.lru_cache(maxsize=None)
def loaded(name: str) -> hfcompat.Tokenizer:
    """One shared GGUF's tokenizer, read once for all the tests (reading the largest takes seconds)."""
    return hfcompat.load(shared_file(f"refs/gguf/ggml-vocab-{name}.gguf"))


@pytest.mark.parametrize("name", GGUF_NAMES)
def test_llama_cpp_test_strings(name: str, backend: str) -> None:
    """Every .inp string gives exactly its .out ids, on each backend (a tokenizer loaded for each:
    one backend's caches would answer for the other)."""
    tokenizer = hfcompat.load(shared_file(f"refs/gguf/ggml-vocab-{name}.gguf"))
    for text, ids in cases_of(name):
        assert tokenizer.encode(text, add_special_tokens=False).ids == ids, text


@pytest.mark.parametrize("name", GGUF_NAMES)
def test_converted_tokenizer_json_in_tokenizers(name: str) -> None:
    """The tokenizer.json of each GGUF gives the .out ids in `tokenizers` too."""
    tokenizers = pytest.importorskip("tokenizers")
    theirs = tokenizers.Tokenizer.from_str(loaded(name).to_str())
    for text, ids in cases_of(name):
        assert theirs.encode(text, add_special_tokens=False).ids == ids, text


@pytest.mark.parametrize("name", GGUF_NAMES)
def test_rewritten_gguf_has_the_same_keys(name: str, tmp_path: Path) -> None:
    """A GGUF written from a shared GGUF's own tokenizer holds the same tokenizer keys and values."""
    path = shared_file(f"refs/gguf/ggml-vocab-{name}.gguf")
    loaded(name).save(tmp_path / "again.gguf")
    assert read_gguf_data(tmp_path / "again.gguf") == read_gguf_data(path)


def corpus() -> list[str]:
    """Corpus lines and the fixture."""
    return [line for name in ("botchan", "wagahaiwa", "pku_test") for line in corpus_sample(name, 60)] + fixture_texts()


def official(reference: str) -> Any:
    """The owner library's encoder (no special tokens) for a shared file: sentencepiece for a
    .model, BertWordPieceTokenizer for a vocab.txt, `tokenizers` for a tokenizer.json."""
    path = shared_file(f"refs/{reference}")
    if path.suffix == ".model":
        processor = pytest.importorskip("sentencepiece").SentencePieceProcessor(model_file=str(path))
        return processor.encode
    tokenizers = pytest.importorskip("tokenizers")
    if path.name == "vocab.txt":
        tokenizer = tokenizers.BertWordPieceTokenizer(str(path), lowercase=True)
    else:
        tokenizer = tokenizers.Tokenizer.from_file(str(path))
        tokenizer.no_truncation()
    return lambda text: tokenizer.encode(text, add_special_tokens=False).ids


@pytest.mark.parametrize("reference", WRITABLE)
def test_written_gguf_encodes_as_its_source(reference: str, tmp_path: Path) -> None:
    """A GGUF written from a shared tokenizer reads back (with the gguf package) and encodes every
    corpus line as the tokenizer it was written from, and as the owner library runs that file
    (truncation is a call setting, off here)."""
    source = hfcompat.load(shared_file(f"refs/{reference}"))
    source.no_truncation()
    source.save(tmp_path / "out.gguf")
    back = hfcompat.load(tmp_path / "out.gguf")
    encode = official(reference)
    for text in corpus():
        ids = back.encode(text, add_special_tokens=False).ids
        assert ids == source.encode(text, add_special_tokens=False).ids, text
        assert ids == encode(text), text


@pytest.mark.parametrize("reference, reason", sorted(REFUSED.items()))
def test_what_gguf_cannot_hold_is_refused(reference: str, reason: str, tmp_path: Path) -> None:
    """UnsupportedConversion naming the reason, and no file."""
    source = hfcompat.load(shared_file(f"refs/{reference}"))
    with pytest.raises(UnsupportedConversion, match=reason):
        source.save(tmp_path / "out.gguf")
    assert not list(tmp_path.iterdir())


def gpt2_data() -> gguf_read.GGUFTokenizerData:
    """The tokenizer keys of llama.cpp's GPT-2 test file."""
    return read_gguf_data(shared_file("refs/gguf/ggml-vocab-gpt-2.gguf"))


@pytest.mark.parametrize("name", NO_PRE_NAMES)
def test_a_missing_pre_name_reads_as_llama_cpp_default(name: str, tmp_path: Path) -> None:
    """A gpt2 file without tokenizer.ggml.pre loads with a warning, as llama.cpp loads it: with the
    pipeline of the name 'default' (which itself loads without one); `tokenizers` runs the
    tokenizer.json alike, and the file is written back without the key."""
    tokenizers = pytest.importorskip("tokenizers")
    path = shared_file(f"refs/gguf/ggml-vocab-{name}.gguf")
    with pytest.warns(UserWarning, match="no tokenizer.ggml.pre.*'default'"):
        tokenizer = hfcompat.load(path)
    named = tmp_path / "named.gguf"
    write_gguf_data(dataclasses.replace(read_gguf_data(path), pre="default"), named)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert hfcompat.load(named).to_str() == tokenizer.to_str()
    theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
    for text in corpus():
        assert tokenizer.encode(text, add_special_tokens=False).ids == \
            theirs.encode(text, add_special_tokens=False).ids, text
    tokenizer.save(tmp_path / "again.gguf")
    assert read_gguf_data(tmp_path / "again.gguf") == read_gguf_data(path)


def test_llama3_names_add_the_bos_token_unless_the_file_says_not(tmp_path: Path) -> None:
    """A Llama 3 file that does not say whether to add the bos token gets it, as llama.cpp adds it
    for that `pre` name (and Llama 3's own template adds <|begin_of_text|>); with the flag off it
    does not, and a tokenizer without it is written with the flag off."""
    path = shared_file("refs/gguf/ggml-vocab-llama-bpe.gguf")
    data = read_gguf_data(path)
    assert "add_bos_token" not in data.flags
    bos = data.special_ids["bos"]
    for text, ids in cases_of("llama-bpe")[:10]:
        assert loaded("llama-bpe").encode(text).ids == [bos, *ids], text
    write_gguf_data(dataclasses.replace(data, flags={"add_bos_token": False}), tmp_path / "off.gguf")
    off = hfcompat.load(tmp_path / "off.gguf")
    assert off.encode("Hello world").ids == loaded("llama-bpe").encode("Hello world", add_special_tokens=False).ids
    off.save(tmp_path / "tokenizer.json")
    hfcompat.load(tmp_path / "tokenizer.json").save(tmp_path / "again.gguf")
    assert read_gguf_data(tmp_path / "again.gguf").flags == {"add_bos_token": False}


def test_unknown_pre_name_is_an_error_or_a_pattern(tmp_path: Path) -> None:
    """An unknown pre name is a FormatError naming it; pattern= gives the split regex instead."""
    path = tmp_path / "odd.gguf"
    write_gguf_data(dataclasses.replace(gpt2_data(), pre="made-up"), path)
    with pytest.raises(FormatError, match="made-up") as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.pre" and str(path) in str(error.value)
    gpt2_pattern = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
    tokenizer = hfcompat.load(path, pattern=gpt2_pattern)
    for text, ids in cases_of("gpt-2"):
        assert tokenizer.encode(text, add_special_tokens=False).ids == ids, text


@pytest.mark.parametrize("change, key", [
    ({"model": "rwkv"}, "tokenizer.ggml.model"),
    ({"model": "t5", "types": [9] * 50257}, "tokenizer.ggml.token_type"),  # UNDEFINED: refused in t5 only
    ({"types": [1] * 10}, "tokenizer.ggml.token_type"),
    ({"scores": [0.0] * 10}, "tokenizer.ggml.scores"),  # fewer than the tokens (a bad special id loads: lint)
    ({"merges": None}, "tokenizer.ggml.merges"),
])
def test_malformed_keys_name_the_key(change: dict, key: str, tmp_path: Path) -> None:
    """A bad model name, token type, special id or a missing key: FormatError naming file and key."""
    path = tmp_path / "bad.gguf"
    write_gguf_data(dataclasses.replace(gpt2_data(), **change), path)
    with pytest.raises(FormatError) as error:
        hfcompat.load(path)
    assert error.value.field == key and str(path) in str(error.value)


def test_a_bad_merge_names_its_gguf_key(tmp_path: Path) -> None:
    """A merge llama.cpp applies that makes a string the vocabulary lacks is named by its GGUF key
    and index, not by the tokenizer.json field the pipeline is built into."""
    data = gpt2_data()
    path = tmp_path / "bad.gguf"
    assert "qĠ" not in data.tokens
    write_gguf_data(dataclasses.replace(data, merges=[*data.merges, "q Ġ"]), path)
    with pytest.raises(FormatError) as error:
        hfcompat.load(path)
    assert error.value.field == f"tokenizer.ggml.merges[{len(data.merges)}]" and str(path) in str(error.value)


@pytest.mark.parametrize("damage", ["truncated", "magic", "empty"])
def test_damaged_files(damage: str, tmp_path: Path) -> None:
    """A truncated file, a wrong magic number or an empty file: FormatError naming the file."""
    data = shared_file("refs/gguf/ggml-vocab-gpt-2.gguf").read_bytes()
    damaged = {"truncated": data[:len(data) // 3], "magic": b"GGUX" + data[4:], "empty": b""}[damage]
    path = tmp_path / "damaged.gguf"
    path.write_bytes(damaged)
    with pytest.raises(FormatError) as error:
        hfcompat.load(path)
    assert str(path) in str(error.value)


def test_without_the_gguf_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Without the extra, reading works (hfcompat reads the keys itself) and writing says what to install."""
    monkeypatch.setitem(sys.modules, "gguf", None)  # what importing a module that is not installed does
    tokenizer = hfcompat.load(shared_file("refs/gguf/ggml-vocab-gpt-2.gguf"))
    with pytest.raises(MissingDependency, match=r"hfcompat\[gguf\]"):
        tokenizer.save(tmp_path / "out.gguf")


@pytest.mark.parametrize("name", GGUF_NAMES)
def test_metadata_equals_what_gguf_reads(name: str) -> None:
    """Every key of every reference file has the value llama.cpp's gguf-py gives it."""
    path = shared_file(f"refs/gguf/ggml-vocab-{name}.gguf")
    reader = gguf.GGUFReader(path)
    expected = {key: found.contents() for key, found in reader.fields.items() if not key.startswith("GGUF.")}
    assert read_metadata(path) == expected


@pytest.mark.parametrize("damage, message", [
    (lambda data: data[:-3], "truncated"),
    (lambda data: data[:4] + struct.pack("<I", 1) + data[8:], "version 1"),
    (lambda data: data[:4] + struct.pack(">I", 3) + data[8:], "truncated|not one"),  # read big-endian
    (lambda data: data[:16] + struct.pack("<Q", 2 ** 62) + data[24:], "truncated"),
])
def test_damaged_headers_and_counts(damage: Callable[[bytes], bytes], message: str, tmp_path: Path) -> None:
    """A cut file, an unknown version, the other byte order and a huge key count: FormatError naming the file."""
    path = tmp_path / "damaged.gguf"
    path.write_bytes(damage(shared_file("refs/gguf/ggml-vocab-llama-spm.gguf").read_bytes()))
    with pytest.raises(FormatError, match=message) as error:
        read_metadata(path)
    assert str(path) in str(error.value)


def test_a_key_given_twice_and_a_huge_array_are_refused(tmp_path: Path) -> None:
    """A key repeated (llama.cpp refuses the file) or an array longer than the file: FormatError naming the key."""
    def key(name: str, value_type: int, payload: bytes) -> bytes:
        return struct.pack("<Q", len(name)) + name.encode() + struct.pack("<I", value_type) + payload

    header = b"GGUF" + struct.pack("<IQQ", 3, 0, 2)
    twice = header + key("a.b", 4, struct.pack("<I", 1)) * 2
    huge = header + key("a.b", 4, struct.pack("<I", 1)) + key("c.d", 9, struct.pack("<IQ", 6, 2 ** 40))
    for data, name in [(twice, "a.b"), (huge, "c.d")]:
        path = tmp_path / "bad.gguf"
        path.write_bytes(data)
        with pytest.raises(FormatError) as error:
            read_metadata(path)
        assert error.value.field == name


def test_shared_files_are_vocab_only() -> None:
    """The shared files hold no tensors (what the reader reads is the metadata alone), and each is
    one the tests here know."""
    if not (SHARED / "refs" / "gguf").is_dir():
        pytest.skip("../shared/refs/gguf is absent")
    assert sorted(p for p in os.listdir(SHARED / "refs" / "gguf") if p.endswith(".gguf")) == \
        sorted(f"ggml-vocab-{name}.gguf" for name in GGUF_NAMES + NO_PRE_NAMES + UNREAD_NAMES)


@pytest.mark.parametrize("name", ["gpt-2", "llama-spm", "bert-bge"])
def test_verify_against_llama_cpp_tests(name: str) -> None:
    """`verify` on a GGUF checks hfcompat against the ids recorded beside it, its test strings the corpus."""
    path = shared_file(f"refs/gguf/ggml-vocab-{name}.gguf")
    texts = [text for text, _ in cases_of(name)]
    report = hfcompat.verify(path, texts)
    assert report.reference.startswith("llama.cpp tests") and report.total == len(texts) and report.ok, report.summary()


def test_verify_cli_uses_the_test_strings(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`hfcompat verify x.gguf` needs no corpus; a converted file verifies against the GGUF's recorded ids."""
    from hfcompat.cli import run
    path = shared_file("refs/gguf/ggml-vocab-deepseek-coder.gguf")
    assert run(["verify", str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("46/46 identical")
    loaded("deepseek-coder").save(tmp_path / "tokenizer.json")
    assert run(["verify", str(tmp_path / "tokenizer.json"), "--reference", str(path)]) == 0
    assert "tokenizers" in capsys.readouterr().out
    assert run(["verify", str(tmp_path / "tokenizer.json")]) == 2  # no corpus: a usage error
    assert "--corpus is required" in capsys.readouterr().err


def test_a_text_without_recorded_ids_is_a_mismatch() -> None:
    """A text that llama.cpp's tests do not hold cannot pass silently."""
    report = hfcompat.verify(shared_file("refs/gguf/ggml-vocab-gpt-2.gguf"), ["not among the test strings"])
    assert report.mismatches == 1
