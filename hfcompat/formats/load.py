"""`hfcompat.load`: open any tokenizer file hfcompat reads, by what the path holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..tokenizer import Tokenizer
from .detect import DIRECTORY, detect_format
from .gguf import read_gguf
from .sentencepiece import read_sentencepiece
from .tekken import read_tekken
from .tiktoken import read_tiktoken
from .tokenizer_json import read_tokenizer_json
from .transformers.pretrained import (bert_tokenizer, gpt2_tokenizer, is_pretrained_directory, load_pretrained,
                                      read_hfcompat_file)
from .transformers.rag import is_rag_directory, load_rag


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
    path = Path(path)
    kind = detect_format(path, options.get("format"))
    if kind == DIRECTORY:
        return _load_directory(path, options)
    if kind == "gguf":
        return read_gguf(path, pattern=options.get("pattern"))
    if kind == "sentencepiece":
        return read_sentencepiece(path, add_bos=options.get("add_bos", False), add_eos=options.get("add_eos", False))
    if kind == "tiktoken":
        return read_tiktoken(path, encoding=options.get("encoding"), pattern=options.get("pattern"),
                             special_tokens=options.get("special_tokens"))
    if kind == "tekken.json":
        return read_tekken(path, add_bos=options.get("add_bos", False), add_eos=options.get("add_eos", False))
    if kind == "hfcompat.json":  # a remote-code directory's file, with the files it names
        return read_hfcompat_file(path)
    strict = options.get("strict", True)
    if kind == "vocab.json":
        return _load_gpt2(path, path.with_name("merges.txt"), strict)
    if kind == "merges.txt":
        return _load_gpt2(path.with_name("vocab.json"), path, strict)
    if kind == "vocab.txt":
        return bert_tokenizer(path, lowercase=options.get("lowercase", True))
    return read_tokenizer_json(path, strict)


def _load_directory(directory: Path, options: dict[str, Any]) -> Tokenizer:
    """Load the tokenizer a directory holds: a transformers directory as AutoTokenizer builds it,
    else its tokenizer.json, vocab.txt or vocab.json."""
    if is_rag_directory(directory):
        return load_rag(directory)
    if is_pretrained_directory(directory):
        return load_pretrained(directory)
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
    return gpt2_tokenizer(vocab, merges, strict=strict)
