"""Small real tokenizer files, and what each format's owner library and hfcompat make of a file.

The strictness tests, the fuzz tests and the atheris targets (fuzz/) share this module. The
small files are cut from ../shared/refs (or mistral-common's data) at run time, never stored:
the first ids of a vocabulary and the merges among them, which stays a valid tokenizer of the
same kind. An outcome is `("refused", message)` or `("loaded", ids of each probe text)`.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import hfcompat
from hfcompat.errors import FormatError, MissingDependency, TokenizationError, UnsupportedConversion
from hfcompat.formats.sentencepiece import schema as spm
from hfcompat.formats.tiktoken.encodings import R50K_PATTERN

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PROBES = ("Hello world", "  two  spaces\tand a tab\n", "naïve café 12345", "日本語のテキスト 你好",
          "<|endoftext|>x</s>", "ﬁ ① 🙂")
# The errors hfcompat raises on purpose for a bad file (tokenizing errors come from encoding).
DOCUMENTED = (FormatError, UnsupportedConversion, MissingDependency)
SPECIAL = "<|endoftext|>"
Outcome = tuple[str, Any]
SECONDS = 5.0  # a small file loads in well under a second; more is a hang


def shared(relative: str) -> Path:
    """A file of ../shared (the caller skips when ../shared is absent)."""
    return SHARED / relative


# ----- small real files ---------------------------------------------------------------------

def _json_bytes(data: Any) -> bytes:
    """Compact UTF-8 JSON."""
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def _cut_bpe(model: dict, size: int) -> dict:
    """A BPE model object kept to the ids below `size` and the merges among them."""
    vocab = {token: i for token, i in model["vocab"].items() if i < size}
    pairs = [m if isinstance(m, list) else m.split(" ", 1) for m in model["merges"]]
    merges = [pair for pair in pairs if pair[0] in vocab and pair[1] in vocab and pair[0] + pair[1] in vocab]
    return {**model, "vocab": vocab, "merges": merges}


@functools.lru_cache(maxsize=None)
def gpt2_json() -> bytes:
    """GPT-2's tokenizer.json cut to 1,000 tokens (byte-level BPE)."""
    data = json.loads(shared("refs/gpt2/tokenizer.json").read_text(encoding="utf-8"))
    data["model"] = _cut_bpe(data["model"], 1000)
    return _json_bytes(data)


@functools.lru_cache(maxsize=None)
def t5_json() -> bytes:
    """T5's tokenizer.json cut to 2,000 pieces (Unigram behind a Precompiled charsmap)."""
    data = json.loads(shared("refs/t5/tokenizer.json").read_text(encoding="utf-8"))
    data["model"]["vocab"] = data["model"]["vocab"][:2000]
    data["added_tokens"] = data["added_tokens"][:3]
    return _json_bytes(data)


@functools.lru_cache(maxsize=None)
def bert_vocab_txt() -> bytes:
    """BERT uncased's vocab.txt cut to 3,000 lines ([UNK], [CLS], [SEP] among them)."""
    return b"".join(shared("refs/bert-base-uncased/vocab.txt").read_bytes().splitlines(keepends=True)[:3000])


@functools.lru_cache(maxsize=None)
def bert_json() -> bytes:
    """The tokenizer.json `tokenizers` builds for the cut BERT vocabulary (WordPiece)."""
    from tokenizers.implementations import BertWordPieceTokenizer

    vocab = {line: i for i, line in enumerate(bert_vocab_txt().decode("utf-8").splitlines())}
    return BertWordPieceTokenizer(vocab, lowercase=True).to_str().encode("utf-8")


@functools.lru_cache(maxsize=None)
def wordlevel_json() -> bytes:
    """A WordLevel tokenizer.json over the cut BERT vocabulary, split on whitespace."""
    data = json.loads(bert_json())
    data["model"] = {"type": "WordLevel", "vocab": data["model"]["vocab"], "unk_token": "[UNK]"}
    data["pre_tokenizer"] = {"type": "WhitespaceSplit"}
    data["decoder"] = None
    return _json_bytes(data)


@functools.lru_cache(maxsize=None)
def gpt2_vocab_and_merges() -> tuple[bytes, bytes]:
    """GPT-2's vocab.json and merges.txt, cut as gpt2_json."""
    model = json.loads(gpt2_json())["model"]
    merges = "#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in model["merges"])
    return _json_bytes(model["vocab"]), merges.encode("utf-8")


def _cut_model(relative: str, size: int) -> bytes:
    """A SentencePiece model kept to its first `size` pieces (its byte pieces among them) and its
    one-char pieces (which a BPE model keeps last)."""
    proto = spm.ModelProto()
    proto.ParseFromString(shared(relative).read_bytes())
    chars = [piece for piece in proto.pieces[size:] if len(piece.piece) == 1]
    del proto.pieces[size:]
    proto.pieces.extend(chars)
    size = len(proto.pieces)
    proto.trainer_spec.vocab_size = size
    return proto.SerializeToString()


@functools.lru_cache(maxsize=None)
def llama_model() -> bytes:
    """Llama-2's tokenizer.model cut to 1,500 pieces (BPE with byte fallback)."""
    return _cut_model("refs/llama2/tokenizer.model", 1500)


@functools.lru_cache(maxsize=None)
def albert_model() -> bytes:
    """ALBERT's spiece.model cut to 1,500 pieces (Unigram, nmt_nfkc)."""
    return _cut_model("refs/albert/spiece.model", 1500)


@functools.lru_cache(maxsize=None)
def r50k_ranks() -> bytes:
    """r50k_base's rank file cut to its first 1,000 ranks."""
    return b"".join(shared("refs/tiktoken/r50k_base.tiktoken").read_bytes().splitlines(keepends=True)[:1000])


def tekken_source() -> Path:
    """The smaller tekken.json mistral-common ships."""
    import mistral_common

    return Path(mistral_common.__file__).parent / "data" / "tekken_240718.json"


@functools.lru_cache(maxsize=None)
def tekken_json() -> bytes:
    """mistral-common's tekken_240718.json cut to 1,000 vocab entries."""
    data = json.loads(tekken_source().read_bytes())
    data["vocab"] = data["vocab"][:1000]
    config = data["config"]
    config["num_vocab_tokens"] = 1000
    config["default_vocab_size"] = config["default_num_special_tokens"] + 1000
    return _json_bytes(data)


@functools.lru_cache(maxsize=None)
def llama_gguf() -> bytes:
    """llama.cpp's ggml-vocab-llama-spm.gguf rewritten with its first 1,500 tokens (gguf's writer)."""
    return _cut_gguf("refs/gguf/ggml-vocab-llama-spm.gguf", 1500)


@functools.lru_cache(maxsize=None)
def gpt2_gguf() -> bytes:
    """llama.cpp's ggml-vocab-gpt-2.gguf rewritten with its first 1,000 tokens and their merges."""
    return _cut_gguf("refs/gguf/ggml-vocab-gpt-2.gguf", 1000)


GGUFFields = dict[str, tuple[Any, Any, Any]]  # key -> (value, type, array item type)


def gguf_fields(data: bytes) -> GGUFFields:
    """Every metadata key of a GGUF (but the header's) with its value and types, in file order."""
    import tempfile

    import gguf

    with tempfile.NamedTemporaryFile(suffix=".gguf") as file:
        file.write(data)
        file.flush()
        reader = gguf.GGUFReader(file.name)
        return {name: (field.contents(), field.types[0], field.types[1] if len(field.types) > 1 else None)
                for name, field in reader.fields.items() if not name.startswith("GGUF.")}


def write_gguf(fields: GGUFFields, tensors: dict[str, Any] | None = None) -> bytes:
    """A GGUF holding `fields` (and `tensors`, name -> NumPy array; none: vocab-only), written by
    gguf's own writer."""
    import tempfile

    import gguf

    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "out.gguf"
        writer = gguf.GGUFWriter(out, fields["general.architecture"][0])
        for name, (value, kind, sub_type) in fields.items():
            if name != "general.architecture":
                writer.add_key_value(name, value, kind, sub_type=sub_type)
        for name, tensor in (tensors or {}).items():
            writer.add_tensor(name, tensor)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        return out.read_bytes()


def _cut_gguf(relative: str, size: int) -> bytes:
    """A vocab-only GGUF keeping the first `size` tokens (and the merges among them)."""
    fields = gguf_fields(shared(relative).read_bytes())
    kept = set(fields["tokenizer.ggml.tokens"][0][:size])
    for name, (value, kind, sub_type) in list(fields.items()):
        if name == "tokenizer.ggml.merges":
            value = [m for m in value if (pair := m.split(" ", 1))[0] in kept and pair[1] in kept
                     and "".join(pair) in kept]
        elif name in ("tokenizer.ggml.tokens", "tokenizer.ggml.scores", "tokenizer.ggml.token_type"):
            value = value[:size]
        elif name.endswith("_token_id") and value >= size:
            del fields[name]
            continue
        fields[name] = (value, kind, sub_type)
    return write_gguf(fields)


# ----- what each library makes of a file ----------------------------------------------------

@dataclass(frozen=True)
class Kind:
    """One reader under test: how to make its small file, and how each side opens it."""

    name: str
    files: Callable[[], dict[str, bytes]]  # file name -> content; the first is the one opened
    owner: Callable[[Path], Any] | None  # opens it in the owner library, returns an encode(text) -> ids
    ours: Callable[[Path], Any]  # opens it in hfcompat, returns an encode(text) -> ids


def _owner_tokenizer_json(path: Path) -> Callable[[str], list[int]]:
    """tokenizers.Tokenizer.from_file."""
    import tokenizers

    tokenizer = tokenizers.Tokenizer.from_file(str(path))
    return lambda text: tokenizer.encode(text).ids


def _owner_sentencepiece(path: Path) -> Callable[[str], list[int]]:
    """sentencepiece.SentencePieceProcessor."""
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_file=str(path))
    return processor.encode


@contextlib.contextmanager
def environment(name: str, value: str) -> Iterator[None]:
    """Set one environment variable for the duration, then put it back as it was."""
    saved = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if saved is None:
            del os.environ[name]
        else:
            os.environ[name] = saved


def tiktoken_encoding(ranks: dict[bytes, int]) -> Any:
    """tiktoken's Encoding of cut r50k ranks, its special token after them."""
    import tiktoken

    special = max(ranks.values(), default=-1) + 1
    return tiktoken.Encoding("cut", pat_str=R50K_PATTERN, mergeable_ranks=ranks, special_tokens={SPECIAL: special})


def _owner_tiktoken(path: Path) -> Callable[[str], list[int]]:
    """tiktoken's load_tiktoken_bpe and Encoding (its cache, keyed by the path, turned off: the
    fuzzers write new bytes under one path, and the cache would hand back the first)."""
    from tiktoken.load import load_tiktoken_bpe

    with environment("TIKTOKEN_CACHE_DIR", ""):
        ranks = load_tiktoken_bpe(str(path))
    encoding = tiktoken_encoding(ranks)
    return lambda text: encoding.encode(text, allowed_special="all")


def _ours_tiktoken(path: Path) -> Callable[[str], list[int]]:
    """hfcompat's rank-file reader with the same pattern and special token."""
    from hfcompat.formats.tiktoken.ranks import parse_ranks

    special = max(parse_ranks(path.read_bytes(), str(path)).values(), default=-1) + 1
    tokenizer = hfcompat.load(path, pattern=R50K_PATTERN, special_tokens={SPECIAL: special})
    return lambda text: tokenizer.encode_ids(text, allowed_special="all")


def _owner_tekken(path: Path) -> Callable[[str], list[int]]:
    """mistral-common's Tekkenizer."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    tokenizer = Tekkenizer.from_file(path)
    return lambda text: tokenizer.encode(text, bos=False, eos=False)


def _owner_gguf(path: Path) -> Callable[[str], list[int]]:
    """gguf-py's reader (llama.cpp's Python reader parses; it does not tokenize): every field read."""
    import gguf

    reader = gguf.GGUFReader(path)
    for field in reader.fields.values():
        field.contents()
    return lambda text: None


def _owner_vocab_txt(path: Path) -> Callable[[str], list[int]]:
    """tokenizers' BertWordPieceTokenizer (the pipeline BertTokenizerFast builds)."""
    from tokenizers.implementations import BertWordPieceTokenizer

    tokenizer = BertWordPieceTokenizer(str(path), lowercase=True)
    return lambda text: tokenizer.encode(text).ids


def _owner_vocab_json(path: Path) -> Callable[[str], list[int]]:
    """tokenizers' ByteLevelBPETokenizer (GPT2TokenizerFast's pipeline) on vocab.json + merges.txt."""
    from tokenizers.implementations import ByteLevelBPETokenizer

    tokenizer = ByteLevelBPETokenizer(str(path), str(path.with_name("merges.txt")))
    return lambda text: tokenizer.encode(text).ids


def _ours(path: Path) -> Callable[[str], list[int]]:
    """hfcompat.load."""
    tokenizer = hfcompat.load(path)
    return lambda text: tokenizer.encode(text).ids


KINDS = {
    "gpt2.json": Kind("gpt2.json", lambda: {"tokenizer.json": gpt2_json()}, _owner_tokenizer_json, _ours),
    "t5.json": Kind("t5.json", lambda: {"tokenizer.json": t5_json()}, _owner_tokenizer_json, _ours),
    "bert.json": Kind("bert.json", lambda: {"tokenizer.json": bert_json()}, _owner_tokenizer_json, _ours),
    "wordlevel.json": Kind("wordlevel.json", lambda: {"tokenizer.json": wordlevel_json()}, _owner_tokenizer_json,
                           _ours),
    "llama.model": Kind("llama.model", lambda: {"tokenizer.model": llama_model()}, _owner_sentencepiece, _ours),
    "albert.model": Kind("albert.model", lambda: {"spiece.model": albert_model()}, _owner_sentencepiece, _ours),
    "r50k.tiktoken": Kind("r50k.tiktoken", lambda: {"cut.tiktoken": r50k_ranks()}, _owner_tiktoken, _ours_tiktoken),
    "tekken.json": Kind("tekken.json", lambda: {"tekken.json": tekken_json()}, _owner_tekken, _ours),
    "llama.gguf": Kind("llama.gguf", lambda: {"llama.gguf": llama_gguf()}, _owner_gguf, _ours),
    "gpt2.gguf": Kind("gpt2.gguf", lambda: {"gpt2.gguf": gpt2_gguf()}, _owner_gguf, _ours),
    "vocab.txt": Kind("vocab.txt", lambda: {"vocab.txt": bert_vocab_txt()}, _owner_vocab_txt, _ours),
    "vocab.json": Kind("vocab.json", lambda: dict(zip(("vocab.json", "merges.txt"), gpt2_vocab_and_merges())),
                       _owner_vocab_json, _ours),
}


@functools.lru_cache(maxsize=None)
def _scratch_cache() -> str:
    """A cache directory for this process's damaged files, removed when it exits."""
    import atexit
    import shutil
    import tempfile

    directory = tempfile.mkdtemp(prefix="hfcompat-cache-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return directory


def write_files(directory: Path, files: dict[str, bytes]) -> Path:
    """Write the files into `directory`; return the path of the first (the one opened)."""
    for name, content in files.items():
        (directory / name).write_bytes(content)
    return directory / next(iter(files))


def owner_outcome(kind: Kind, path: Path, probes: tuple[str, ...] = PROBES) -> Outcome:
    """What the owner library makes of the file: refused (any exception, a Rust panic included),
    or the ids of each probe (None for a probe it cannot encode)."""
    try:
        encode = kind.owner(path)
    except BaseException as error:  # noqa: BLE001 - pyo3's PanicException derives from BaseException
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return ("refused", f"{type(error).__name__}: {error}"[:300])
    return ("loaded", tuple(_ids_or_none(encode, text) for text in probes))


def _ids_or_none(encode: Callable[[str], Any], text: str) -> Any:
    """encode(text) as a tuple, or None when the library cannot encode it."""
    try:
        ids = encode(text)
    except BaseException as error:  # noqa: BLE001 - an owner's panic on one text
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return None
    return None if ids is None else tuple(ids)


def our_outcome(kind: Kind, path: Path, probes: tuple[str, ...] = PROBES) -> Outcome:
    """What hfcompat makes of the file: refused with a documented error (anything else propagates:
    a bug), or the ids of each probe (None for a probe it cannot encode: TokenizationError)."""
    try:
        with environment("HFCOMPAT_CACHE_DIR", _scratch_cache()):  # no cache entry per damaged file
            encode = kind.ours(path)
    except DOCUMENTED as error:
        return ("refused", str(error)[:300])
    ids = []
    for text in probes:
        try:
            ids.append(tuple(encode(text)))
        except TokenizationError:
            ids.append(None)
    return ("loaded", tuple(ids))


def check_outcome(kind_name: str, files: dict[str, bytes], directory: Path) -> None:
    """Assert an allowed outcome: hfcompat refuses with a documented error, or it loads and so does
    the owner, encoding the probes alike; any other exception propagates, a load slower than
    SECONDS of CPU time fails (CPU time: a fuzzer that shares the machine is not a hang)."""
    kind = KINDS[kind_name]
    for old in directory.iterdir():
        old.unlink()
    path = write_files(directory, files)
    started = time.process_time()
    ours = our_outcome(kind, path)  # any undocumented exception propagates: a bug
    spent = time.process_time() - started
    assert spent < SECONDS, f"hfcompat took {spent:.1f} s of CPU time"
    if ours[0] == "refused":
        return
    owner = owner_outcome(kind, path)
    assert owner[0] == "loaded", f"hfcompat loads what the owner refuses: {owner[1]}"
    for text, theirs, mine in zip(PROBES, owner[1], ours[1]):
        assert theirs is None or mine == theirs, f"{text!r}: ids differ from the owner's: {mine} != {theirs}"


def b64(data: bytes) -> str:
    """Base64 text (tiktoken and tekken token bytes)."""
    return base64.b64encode(data).decode("ascii")
