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
from hypothesis import given, strategies as st

import hfcompat
from hfcompat.errors import FormatError, MissingDependency, UnsupportedConversion
from hfcompat.formats.gguf import read as gguf_read
from hfcompat.formats.gguf.metadata import read_metadata
from hfcompat.formats.gguf.read import read_gguf_data, unescaped_rwkv_token
from hfcompat.formats.gguf.write import write_gguf_data

from conftest import SHARED, corpus_sample, fixture_texts, shared_file

gguf = pytest.importorskip("gguf", reason="the gguf package (the extra hfcompat[gguf], a test dependency) "
                                          "writes GGUF and is the oracle of reading it")
pytestmark = pytest.mark.conformance

SEPARATOR = "\n__ggml_vocab_test__\n"
GGUF_NAMES = ["bert-bge", "command-r", "deepseek-coder", "deepseek-llm", "falcon", "gemma-4", "gpt-2", "llama-bpe",
              "llama-spm", "mpt", "phi-3", "qwen2", "qwen35", "refact", "starcoder"]
# The files whose every key is compared with gguf-py's reading (it takes 15-40 s on a 150k-250k
# vocabulary; the larger files hold keys of the same kinds).
METADATA_NAMES = ["bert-bge", "deepseek-coder", "falcon", "gpt-2", "llama-bpe", "llama-spm", "phi-3", "qwen2",
                  "starcoder"]
# gpt2 files without test strings and without the pre key: llama.cpp reads them with its 'default' splits.
NO_PRE_NAMES = ["aquila", "gpt-neox"]
# Shared files without test strings whose pre key is not the question (a llama and a t5 file).
NO_STRINGS_NAMES = ["baichuan", "nomic-bert-moe"]
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


@pytest.mark.parametrize("name", NO_STRINGS_NAMES)
def test_files_without_test_strings_run_as_their_tokenizer_json(name: str) -> None:
    """A shared file without llama.cpp's test strings loads, and `tokenizers` runs the
    tokenizer.json it converts to alike on the corpus (with and without special tokens)."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = loaded(name)
    theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
    for text in corpus():
        for special in (False, True):
            assert tokenizer.encode(text, add_special_tokens=special).ids == \
                theirs.encode(text, add_special_tokens=special).ids, text


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
    ({"model": "made-up"}, "tokenizer.ggml.model"),
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


@pytest.mark.parametrize("name", METADATA_NAMES)
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
        sorted(f"ggml-vocab-{name}.gguf" for name in GGUF_NAMES + NO_PRE_NAMES + NO_STRINGS_NAMES)


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


# ----- rwkv: RWKV's world tokenizer, against RWKV's own (the `rwkv` package, a test dependency) -----

@pytest.fixture(scope="module")
def rwkv_world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """RWKV's TRIE_TOKENIZER and a GGUF of its vocabulary written (with the gguf package) as
    llama.cpp's converter writes one: "<s>" first, each token's bytes as Python's repr without
    b'...', "[PADn]" up to 65536."""
    module = pytest.importorskip("rwkv.rwkv_tokenizer", reason="the rwkv package (a test dependency) is "
                                                               "the oracle of RWKV's world tokenizer")
    oracle = module.TRIE_TOKENIZER(str(Path(module.__file__).with_name("rwkv_vocab_v20230424.txt")))
    tokens = ["<s>"] + [repr(oracle.idx2token[i])[2:-1] for i in range(1, len(oracle.idx2token) + 1)]
    types = [gguf.TokenType.CONTROL] + [gguf.TokenType.NORMAL] * (len(tokens) - 1)
    types += [gguf.TokenType.UNUSED] * (65536 - len(tokens))
    tokens += [f"[PAD{i}]" for i in range(len(tokens), 65536)]
    path = tmp_path_factory.mktemp("rwkv") / "rwkv-world.gguf"
    writer = gguf.GGUFWriter(str(path), arch="rwkv7")
    writer.add_tokenizer_model("rwkv")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.close()
    return oracle, path


def rwkv_text(text: str) -> str:
    """`text` without "<s>": the file's control token, matched as a special token (as llama.cpp
    does when it parses specials), which RWKV's own vocabulary lacks; lone surrogates (which
    neither side encodes) replaced."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("<s>", "")


@functools.lru_cache(maxsize=None)
def loaded_file(path: Path) -> hfcompat.Tokenizer:
    """The tokenizer of a GGUF a fixture wrote, read once."""
    return hfcompat.load(path)


def test_rwkv_encodes_and_decodes_as_rwkv(rwkv_world: tuple[Any, Path], backend: str) -> None:
    """Every corpus line gives TRIE_TOKENIZER's ids, and the ids decode to its text."""
    oracle, path = rwkv_world
    tokenizer = loaded_file(path)
    for text in map(rwkv_text, corpus() + corpus_sample("taylorswift", 60)):
        ids = tokenizer.encode(text, add_special_tokens=False).ids
        assert ids == oracle.encode(text), text
        assert tokenizer.decode(ids) == oracle.decode(ids), text


@given(st.text())
def test_rwkv_random_text(rwkv_world: tuple[Any, Path], text: str) -> None:
    """Random Unicode gives TRIE_TOKENIZER's ids."""
    oracle, path = rwkv_world
    text = rwkv_text(text)
    assert loaded_file(path).encode(text, add_special_tokens=False).ids == oracle.encode(text)


def test_rwkv_tokens_are_unescaped_as_llama_cpp_does(rwkv_world: tuple[Any, Path]) -> None:
    """Every stored token reads back as its bytes; escapes llama.cpp reads its own way too."""
    oracle, path = rwkv_world
    stored = read_gguf_data(path).tokens
    assert [unescaped_rwkv_token(stored[i]) for i in range(1, len(oracle.idx2token) + 1)] == \
        [oracle.idx2token[i] for i in range(1, len(oracle.idx2token) + 1)]
    assert unescaped_rwkv_token("a\\qb\\t\\xe4\\x") == b"aqb\t\xe4"  # "\q" is "q"; a cut "\x" adds nothing
    assert unescaped_rwkv_token("é\\") == "é".encode()  # a lone backslash at the end adds nothing


@pytest.mark.parametrize("target", ["tokenizer.json", "tokenizer.model", "out.tiktoken", "tekken.json", "directory"])
def test_rwkv_is_refused_where_it_cannot_be_held(rwkv_world: tuple[Any, Path], target: str,
                                                 tmp_path: Path) -> None:
    """Only GGUF holds RWKV's tokenizer: every other target is UnsupportedConversion, and no file."""
    _, path = rwkv_world
    with pytest.raises(UnsupportedConversion, match="RWKV"):
        loaded_file(path).save(tmp_path / target)
    assert not list(tmp_path.iterdir())


def test_rwkv_gguf_is_written_back_unchanged(rwkv_world: tuple[Any, Path], tmp_path: Path) -> None:
    """Saved as .gguf, the rwkv tokenizer gives the same keys; with a token added it is refused."""
    _, path = rwkv_world
    tokenizer = hfcompat.load(path)
    tokenizer.save(tmp_path / "again.gguf")
    assert read_gguf_data(tmp_path / "again.gguf") == read_gguf_data(path)
    tokenizer.add_tokens(["<new>"])
    with pytest.raises(UnsupportedConversion, match="RWKV"):
        tokenizer.save(tmp_path / "changed.gguf")
    assert not (tmp_path / "changed.gguf").exists()


@pytest.mark.parametrize("model, reason", [("none", "no tokenizer"), ("no_vocab", "no tokenizer"),
                                           ("test", "test vocabulary")])
def test_models_llama_cpp_knows_and_hfcompat_refuses(model: str, reason: str, tmp_path: Path) -> None:
    """A model name llama.cpp reads but hfcompat does not: FormatError naming it and saying why."""
    path = tmp_path / "other.gguf"
    write_gguf_data(dataclasses.replace(gpt2_data(), model=model), path)
    with pytest.raises(FormatError, match=reason) as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.model" and repr(model) in str(error.value)


# ----- plamo2: PLaMo-2's cheapest segmentation, against a brute-force search over every segmentation -----

# A small plamo2 vocabulary: (token, score). Ties on purpose ("ab" = "a" + "b"), a token no path
# may use (score -2500: a cost of 2.5e7), one without a finite score, chars with no token ("z",
# "😀": byte fallback), and a filler scoring -1000 as llama.cpp's converter writes "[PADn]".
PLAMO2_TOKENS = [("a", -1.0), ("b", -1.0), ("ab", -2.0), ("abc", -2.5), ("c", -1.5), ("bc", -2.6),
                 ("é", -3.0), ("éa", -3.5), ("ca", -2.0), ("aaa", -2.9999), ("aa", -2.00005), ("x", -1.0),
                 ("cab", -2500.0), ("ba", float("nan")), ("[", -1.0), ("P", -1.0), ("A", -1.0), ("D", -1.0),
                 ("1", -1.0), ("]", -1.0)]
PLAMO2_ALPHABET = "abcéxz😀"


@pytest.fixture(scope="module")
def plamo2_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plamo2 GGUF written with the gguf package as llama.cpp's converter writes one: control
    tokens, the 256 byte tokens, the vocabulary and a "[PAD1]" filler at -1000."""
    tokens = ["<|plamo:unk|>", "<|plamo:bos|>"] + [f"<0x{byte:02X}>" for byte in range(256)]
    types = [gguf.TokenType.CONTROL] * 2 + [gguf.TokenType.BYTE] * 256
    scores = [0.0] * len(tokens)
    for token, score in PLAMO2_TOKENS + [("[PAD1]", -1000.0)]:
        tokens.append(token)
        types.append(gguf.TokenType.UNUSED if token == "[PAD1]" else gguf.TokenType.NORMAL)
        scores.append(score)
    path = tmp_path_factory.mktemp("plamo2") / "plamo2.gguf"
    writer = gguf.GGUFWriter(str(path), arch="plamo2")
    writer.add_tokenizer_model("plamo2")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.close()
    return path


def cheapest_segmentation(text: str, vocab: dict[str, tuple[int, float]], byte_ids: dict[int, int]) -> list[int]:
    """The ids of the plamo2 spec by brute force: every segmentation into tokens (cost
    -round(score * 1e4), unusable when not finite or 2e7 and more) and lone chars (1e7, their
    UTF-8 bytes), the cheapest, and of equally cheap ones the longest first piece, then second ..."""
    def cost(score: float) -> int | None:
        if score != score:
            return None
        scaled = abs(score) * 10 ** 4
        rounded = int(scaled) + (scaled - int(scaled) >= 0.5)
        value = -rounded if score >= 0 else rounded
        return value if value < 2 * 10 ** 7 else None

    def every(start: int) -> list[tuple[int, tuple[int, ...], list[int]]]:
        if start == len(text):
            return [(0, (), [])]
        found = []
        for end in range(start + 1, len(text) + 1):
            entry = vocab.get(text[start:end])
            if entry is not None and cost(entry[1]) is not None:
                found += [(cost(entry[1]) + rest, (end - start, *lengths), [entry[0], *ids])
                          for rest, lengths, ids in every(end)]
        lone = [byte_ids[byte] for byte in text[start].encode()]
        found += [(10 ** 7 + rest, (1, *lengths), lone + ids) for rest, lengths, ids in every(start + 1)]
        return found

    best = min(total for total, _, _ in every(0))
    return max((lengths, ids) for total, lengths, ids in every(0) if total == best)[1]


@given(st.text(alphabet=PLAMO2_ALPHABET, max_size=9))
def test_plamo2_is_the_cheapest_segmentation(plamo2_file: Path, text: str) -> None:
    """On every text of the vocabulary's chars, the ids of the brute-force search."""
    tokenizer = loaded_file(plamo2_file)
    vocab = {token: (tokenizer.token_to_id(token), score) for token, score in PLAMO2_TOKENS}
    byte_ids = {byte: tokenizer.token_to_id(f"<0x{byte:02X}>") for byte in range(256)}
    for each in (text, "\ufeff" + text):  # a leading U+FEFF is dropped
        assert tokenizer.encode(each, add_special_tokens=False).ids == cheapest_segmentation(text, vocab, byte_ids)


def test_plamo2_worked_examples(plamo2_file: Path, backend: str) -> None:
    """Hand-checked: ties keep the longer piece; a token scoring -1000 ends llama.cpp's candidates
    and its search for the next state ("x[PAD1]": "[PAD1]" whole, then "x" as its byte)."""
    tokenizer = loaded_file(plamo2_file)
    def tokens(text: str) -> list[str]:
        return tokenizer.encode(text, add_special_tokens=False).tokens

    assert tokens("ab") == ["ab"]  # cost 20000 either way: the longer first piece
    assert tokens("aaa") == ["aaa"]  # 29999 beats "aa" + "a" (30001) and "a" * 3 (30000)
    assert tokens("cab") == ["ca", "b"]  # "cab" (2.5e7) is never used; "c" + "ab" ties, "ca" is longer
    assert tokens("ba") == ["b", "a"]  # "ba" has no finite score
    assert tokens("z😀") == ["<0x7A>", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"]
    assert tokens("[PA") == ["[", "P", "A"]
    assert tokens("x[PAD1]") == ["<0x78>", "[PAD1]"]
    encoding = tokenizer.encode("\ufeffé😀<|plamo:bos|>a", add_special_tokens=False)
    assert encoding.tokens == ["é", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>", "<|plamo:bos|>", "a"]
    assert encoding.offsets == [(1, 2), (2, 3), (2, 3), (2, 3), (2, 3), (3, 16), (16, 17)]
    assert tokenizer.decode(encoding.ids, skip_special_tokens=False) == "é😀<|plamo:bos|>a"


def test_plamo2_needs_every_byte_token(plamo2_file: Path, tmp_path: Path) -> None:
    """llama.cpp refuses a plamo2 file without a BYTE token for each byte: a FormatError naming it."""
    data = read_gguf_data(plamo2_file)
    types = list(data.types)
    types[data.tokens.index("<0x41>")] = gguf.TokenType.NORMAL
    path = tmp_path / "bytes.gguf"
    write_gguf_data(dataclasses.replace(data, types=types), path)
    with pytest.raises(FormatError, match="<0x41>") as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.token_type"


def test_plamo2_saves_only_as_its_gguf(plamo2_file: Path, tmp_path: Path) -> None:
    """Written back as .gguf unchanged; tokenizer.json cannot hold it (UnsupportedConversion, no file)."""
    tokenizer = loaded_file(plamo2_file)
    tokenizer.save(tmp_path / "again.gguf")
    assert repr(read_gguf_data(tmp_path / "again.gguf")) == repr(read_gguf_data(plamo2_file))  # NaN != NaN
    with pytest.raises(UnsupportedConversion, match="PLaMo-2"):
        tokenizer.save(tmp_path / "tokenizer.json")
    assert not (tmp_path / "tokenizer.json").exists()


# ----- whitespace and hybriddna: BPE as llama.cpp's sessions of those names run it -----

def whitespace_gguf(path: Path, byte_tokens: range = range(256), model: str = "whitespace",
                    extra: tuple[str, ...] = ()) -> Path:
    """A small BPE vocabulary (chars, "ab", "abc", "你好") written with the gguf package under `model`
    with the pre-tokenizer "whitespace", as llama.cpp's converter writes jina-v2-zh."""
    tokens = ["<unk>", "<s>", *extra] + [f"<0x{byte:02X}>" for byte in byte_tokens] + \
        ["a", "b", "c", "d", "é", "你", "好", "ab", "abc", "你好"]
    types = [gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL] + [gguf.TokenType.CONTROL] * len(extra) + \
        [gguf.TokenType.BYTE] * len(byte_tokens) + [gguf.TokenType.NORMAL] * 10
    writer = gguf.GGUFWriter(str(path), arch="jina-bert-v2")
    writer.add_tokenizer_model(model)
    writer.add_tokenizer_pre("whitespace")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(["a b", "ab c", "你 好"])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.close()
    return path


def test_whitespace_model(tmp_path: Path, backend: str) -> None:
    """Hand-checked against llama.cpp's whitespace session: words cut at every Unicode whitespace
    (U+3000, U+0085 too), BPE merges inside a word only, an unknown char as its UTF-8 byte tokens
    (dropped when the vocabulary has none); the converted tokenizer.json gives the same ids in tokenizers."""
    tokenizers = pytest.importorskip("tokenizers")
    text = "abc ab\u3000abd\u0085x你好\t\té"
    for byte_tokens, expected in [
            (range(256), ["abc", "ab", "ab", "d", "<0x78>", "你好", "é"]),
            (range(0), ["abc", "ab", "ab", "d", "你好", "é"])]:
        path = whitespace_gguf(tmp_path / f"whitespace-{len(byte_tokens)}.gguf", byte_tokens)
        tokenizer = hfcompat.load(path)
        encoding = tokenizer.encode(text, add_special_tokens=False)
        assert encoding.tokens == expected
        theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
        assert theirs.encode(text, add_special_tokens=False).ids == encoding.ids


def test_whitespace_model_lowercases_as_llama_cpp(tmp_path: Path) -> None:
    """normalizer.lowercase: each char by llama.cpp's one-to-one case table ("İ" is "i", not "i̇"),
    hand-checked; tokenizers gives the same ids on the converted tokenizer.json."""
    tokenizers = pytest.importorskip("tokenizers")
    data = read_gguf_data(whitespace_gguf(tmp_path / "whitespace.gguf"))
    write_gguf_data(dataclasses.replace(data, flags={"normalizer.lowercase": True}), tmp_path / "lower.gguf")
    tokenizer = hfcompat.load(tmp_path / "lower.gguf")
    text = "ABc İ É<s>AB"
    encoding = tokenizer.encode(text, add_special_tokens=False)
    assert encoding.tokens == ["abc", "<0x69>", "é", "<s>", "ab"]
    theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
    assert theirs.encode(text, add_special_tokens=False).ids == encoding.ids


def test_whitespace_model_refuses_what_it_cannot_hold(tmp_path: Path) -> None:
    """Some but not all byte tokens, or another pre-tokenizer: FormatError naming the key."""
    path = whitespace_gguf(tmp_path / "some-bytes.gguf", range(128))
    with pytest.raises(FormatError, match="128 of the 256") as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.tokens"
    data = read_gguf_data(whitespace_gguf(tmp_path / "whitespace.gguf"))
    write_gguf_data(dataclasses.replace(data, pre="gpt-2"), tmp_path / "changed.gguf")
    with pytest.raises(FormatError) as error:
        hfcompat.load(tmp_path / "changed.gguf")
    assert error.value.field == "tokenizer.ggml.pre"


def test_whitespace_pre_name_on_a_gpt2_model(tmp_path: Path, backend: str) -> None:
    """pre "whitespace" on a gpt2 model, hand-checked against llama.cpp's source: the text cut into runs of
    Unicode whitespace and runs of other chars (std::wregex's \\S+ after llama.cpp maps non-ASCII whitespace
    to U+000B), BPE on each run's own chars, an unknown char as its byte tokens; tokenizers gives the same ids
    on the converted tokenizer.json. Without byte tokens: FormatError saying why."""
    tokenizers = pytest.importorskip("tokenizers")
    tokenizer = hfcompat.load(whitespace_gguf(tmp_path / "gpt2.gguf", model="gpt2"))
    text = "abc ab\u3000abd\u0085x你好\t\té"
    encoding = tokenizer.encode(text, add_special_tokens=False)
    assert encoding.tokens == ["abc", "<0x20>", "ab", "<0xE3>", "<0x80>", "<0x80>", "ab", "d", "<0xC2>", "<0x85>",
                               "<0x78>", "你好", "<0x09>", "<0x09>", "é"]
    assert tokenizer.decode(encoding.ids) == text
    theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
    assert theirs.encode(text, add_special_tokens=False).ids == encoding.ids
    with pytest.raises(FormatError, match="drops an unknown character after merging") as error:
        hfcompat.load(whitespace_gguf(tmp_path / "no-bytes.gguf", range(0), model="gpt2"))
    assert error.value.field == "tokenizer.ggml.tokens"


def test_sarvam_moe_is_gemma4_bpe_split_at_newlines(tmp_path: Path, backend: str) -> None:
    """pre "sarvam-moe" (llama.cpp: gemma4's escaping and raw-UTF-8 BPE, split at newline runs, without gemma4's
    rule for a newline run that is one token): gemma-4's vocabulary under that name gives every one of llama.cpp's
    gemma-4 test strings its ids, in hfcompat and through the converted tokenizer.json in tokenizers."""
    tokenizers = pytest.importorskip("tokenizers")
    data = read_gguf_data(shared_file("refs/gguf/ggml-vocab-gemma-4.gguf"))
    write_gguf_data(dataclasses.replace(data, model="gpt2", pre="sarvam-moe"), tmp_path / "sarvam.gguf")
    tokenizer = hfcompat.load(tmp_path / "sarvam.gguf")
    theirs = tokenizers.Tokenizer.from_str(tokenizer.to_str())
    for text, ids in cases_of("gemma-4"):
        assert tokenizer.encode(text, add_special_tokens=False).ids == ids, text
        assert theirs.encode(text, add_special_tokens=False).ids == ids, text


def test_hybriddna_is_plain_bpe_without_its_dna_tokens(tmp_path: Path) -> None:
    """Without <dna>, </dna> and <oov> llama.cpp runs plain BPE (GPT-2's test strings give their ids);
    with them, DNA k-mers that no pipeline holds: FormatError."""
    path = tmp_path / "hybriddna.gguf"
    write_gguf_data(dataclasses.replace(gpt2_data(), model="hybriddna"), path)
    tokenizer = hfcompat.load(path)
    for text, ids in cases_of("gpt-2"):
        assert tokenizer.encode(text, add_special_tokens=False).ids == ids, text
    path = whitespace_gguf(tmp_path / "dna.gguf", model="hybriddna", extra=("<dna>", "</dna>", "<oov>"))
    with pytest.raises(FormatError, match="6-mers") as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.model"


def dead_by_passes(merges: list[str], vocab: dict[str, str | int]) -> list[int]:
    """The merges llama.cpp never applies, found the slow way: pass over all merges until none
    adds a string (the definition `dead_merges` computes), less those tokenizers accepts."""
    pairs = [gguf_read.merge_pair(merge) for merge in merges]
    formed: set[str] = set()

    def applies(pair: tuple[str, str]) -> bool:
        return all(len(part) == 1 or part in formed for part in pair)

    grown = True
    while grown:
        grown = False
        for pair in pairs:
            if applies(pair) and "".join(pair) not in formed:
                formed.add("".join(pair))
                grown = True
    return [index for index, (left, right) in enumerate(pairs) if not applies((left, right))
            and not (left in vocab and right in vocab and left + right in vocab)]


@given(merges=st.lists(st.tuples(st.text("abc", min_size=1, max_size=3), st.text("abc", min_size=1, max_size=3))
                       .map(" ".join) | st.sampled_from(["ab", "", " a"]), max_size=25),
       tokens=st.sets(st.text("abc", min_size=1, max_size=5), max_size=4))
def test_dead_merges_are_the_fixed_point(merges: list[str], tokens: set[str]) -> None:
    """Random merges in any order (some never applicable, some malformed): the merges no chain of
    applicable merges reaches, as repeated passes find them."""
    vocab = {token: index for index, token in enumerate(sorted(tokens))}
    assert gguf_read.dead_merges(merges, vocab) == dead_by_passes(merges, vocab)
    # a part made only by a later merge, itself waiting on a later one: none is dead
    assert gguf_read.dead_merges(["abc d", "ab c", "x y", "a b", "q rs"], {}) == [4]


@pytest.mark.parametrize("score", [float("nan"), float("inf")])
def test_a_t5_score_that_is_not_finite_names_its_key(score: float, tmp_path: Path) -> None:
    """A t5 file whose score is NaN or infinite: a FormatError naming the file and the score's index
    (the Unigram model is built directly, and its tokenizer.json form refuses such a score too)."""
    hfcompat.load(shared_file("refs/t5/tokenizer.json")).save(tmp_path / "t5.gguf")
    data = read_gguf_data(tmp_path / "t5.gguf")
    scores = list(data.scores)
    scores[7] = score
    path = tmp_path / "bad.gguf"
    write_gguf_data(dataclasses.replace(data, scores=scores), path)
    with pytest.raises(FormatError, match="not a finite number") as error:
        hfcompat.load(path)
    assert error.value.field == "tokenizer.ggml.scores[7]" and str(path) in str(error.value)
