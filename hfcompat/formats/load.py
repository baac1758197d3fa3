"""`hfcompat.load`: open any tokenizer file hfcompat reads, by what the path holds."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .._lazy import imported
from ..collector import paused_while_loading
from ..errors import FormatError
from .detect import DIRECTORY, detect_format

if TYPE_CHECKING:
    from ..tokenizer import Tokenizer

# The module (in this package) and function that read each format: a reader is imported when a
# file of its format is first loaded, so a load pays for its own format only.
READERS = {
    "gguf": (".gguf", "read_gguf"),
    "sentencepiece": (".sentencepiece", "read_sentencepiece"),
    "tiktoken": (".tiktoken", "read_tiktoken"),
    "tekken.json": (".tekken", "read_tekken"),
    "tokenizer.json": (".tokenizer_json", "read_tokenizer_json"),
    "hfcompat.json": (".transformers.pretrained", "read_hfcompat_file"),
    "vocab.json": (".transformers.pretrained", "gpt2_tokenizer"),
    "vocab.txt": (".transformers.pretrained", "bert_tokenizer"),
    "rag": (".transformers.rag", "load_rag"),
    "is_rag": (".transformers.rag", "is_rag_directory"),
    "pretrained": (".transformers.pretrained", "load_pretrained"),
    "is_pretrained": (".transformers.pretrained", "is_pretrained_directory"),
}


def reader(kind: str) -> Callable[..., Any]:
    """The function of READERS named `kind`, its module imported on first use."""
    return imported(READERS[kind], __package__)


def load(path: str | Path, **options: Any) -> Tokenizer:
    """Load a tokenizer.json, a directory holding one, a SentencePiece model, a tiktoken rank file,
    a tekken.json, a GGUF, a BERT vocab.txt or a GPT-2 vocab.json.

    The format is read from the content (the name only has to agree with it); `format=` names
    one of `detect.FORMATS` instead. Options: `lowercase` (BERT vocab.txt; default True, as
    BertTokenizer does); `add_bos`, `add_eos` (SentencePiece and tekken.json; default False, as
    sentencepiece and Tekkenizer encode); for a rank file `encoding`, `pattern` and
    `special_tokens` (see `read_tiktoken`); for a GGUF `pattern`; `strict=False` loads a
    tokenizer.json or vocab.json that gives one id to two tokens, as `tokenizers` does.
    """
    with paused_while_loading():
        return _load(Path(path), options)


def _load(path: Path, options: dict[str, Any]) -> Tokenizer:
    """`load` of a path, the collector paused."""
    kind = detect_format(path, options.get("format"))
    if kind == DIRECTORY:
        return _load_directory(path, options)
    if kind == "gguf":
        return reader("gguf")(path, pattern=options.get("pattern"))
    if kind == "sentencepiece":
        return reader("sentencepiece")(path, add_bos=options.get("add_bos", False), add_eos=options.get("add_eos", False))
    if kind == "tiktoken":
        return reader("tiktoken")(path, encoding=options.get("encoding"), pattern=options.get("pattern"),
                             special_tokens=options.get("special_tokens"))
    if kind == "tekken.json":
        return reader("tekken.json")(path, add_bos=options.get("add_bos", False), add_eos=options.get("add_eos", False))
    if kind == "hfcompat.json":  # a remote-code directory's file, with the files it names
        return reader("hfcompat.json")(path)
    strict = options.get("strict", True)
    if kind == "vocab.json":
        return _load_gpt2(path, path.with_name("merges.txt"), strict)
    if kind == "merges.txt":
        return _load_gpt2(path.with_name("vocab.json"), path, strict)
    if kind == "vocab.txt":
        return reader("vocab.txt")(path, lowercase=options.get("lowercase", True))
    return reader("tokenizer.json")(path, strict)


def _load_directory(directory: Path, options: dict[str, Any]) -> Tokenizer:
    """Load the tokenizer a directory holds: a transformers directory as AutoTokenizer builds it,
    else its tokenizer.json, vocab.txt or vocab.json."""
    if reader("is_rag")(directory):
        return reader("rag")(directory)
    if reader("is_pretrained")(directory):
        return reader("pretrained")(directory)
    for name in ("tokenizer.json", "vocab.txt", "vocab.json"):
        candidate = directory / name
        if candidate.exists():
            return load(candidate, **options)
    raise FormatError("no tokenizer.json, vocab.txt or vocab.json in this directory",
                      path=str(directory))


def _load_gpt2(vocab: Path, merges: Path, strict: bool) -> Tokenizer:
    """GPT-2's pipeline from its two files."""
    if not merges.exists():
        raise FormatError("a vocab.json needs merges.txt beside it", path=str(merges))
    return reader("vocab.json")(vocab, merges, strict=strict)
