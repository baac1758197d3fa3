"""`hfcompat.load`: open any tokenizer file hfcompat reads, by what the path holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..tokenizer import Tokenizer
from .gguf import read_gguf
from .sentencepiece import read_sentencepiece
from .tekken import is_tekken_file, read_tekken
from .tiktoken import read_tiktoken
from .tokenizer_json import read_tokenizer_json
from .transformers.pretrained import (HFCOMPAT_FILE, bert_tokenizer, gpt2_tokenizer, is_pretrained_directory,
                                      load_pretrained, read_hfcompat_file)


def load(path: str | Path, **options: Any) -> Tokenizer:
    """Load a tokenizer.json, a directory holding one, a SentencePiece .model, a tiktoken rank file,
    a tekken.json, a BERT vocab.txt or a GPT-2 vocab.json.

    Options: `lowercase` (BERT vocab.txt; default True, as BertTokenizer does); `add_bos`,
    `add_eos` (.model and tekken.json; default False, as sentencepiece and Tekkenizer encode); for a `.tiktoken` rank file
    `encoding`, `pattern` and `special_tokens` (see `read_tiktoken`).
    """
    path = Path(path)
    if path.is_dir():
        return _load_directory(path, options)
    if not path.exists():
        raise FormatError("no such file or directory", path=str(path))
    name = path.name
    if name.endswith(".gguf"):
        return read_gguf(path, pattern=options.get("pattern"))
    if name.endswith(".model"):
        return read_sentencepiece(path, add_bos=options.get("add_bos", False),
                                  add_eos=options.get("add_eos", False))
    if name.endswith(".tiktoken"):
        return read_tiktoken(path, encoding=options.get("encoding"), pattern=options.get("pattern"),
                             special_tokens=options.get("special_tokens"))
    if name.endswith(".txt") and name != "merges.txt":
        return bert_tokenizer(path, lowercase=options.get("lowercase", True))
    if name.endswith(".json"):
        if is_tekken_file(path):
            return read_tekken(path, add_bos=options.get("add_bos", False), add_eos=options.get("add_eos", False))
        if name.endswith(HFCOMPAT_FILE):  # a remote-code directory's file, with the files it names
            return read_hfcompat_file(path)
        if name == "vocab.json" or _looks_like_vocab_json(path):
            return _load_gpt2(path, path.with_name("merges.txt"))
        return read_tokenizer_json(path)
    if name == "merges.txt":
        return _load_gpt2(path.with_name("vocab.json"), path)
    raise FormatError("unrecognised tokenizer file: expected tokenizer.json, *.model, *.tiktoken, vocab.txt, or "
                      "vocab.json with merges.txt beside it", path=str(path))


def _load_directory(directory: Path, options: dict[str, Any]) -> Tokenizer:
    """Load the tokenizer a directory holds: a transformers directory as AutoTokenizer builds it,
    else its tokenizer.json, vocab.txt or vocab.json."""
    if is_pretrained_directory(directory):
        return load_pretrained(directory)
    for name in ("tokenizer.json", "vocab.txt", "vocab.json"):
        candidate = directory / name
        if candidate.exists():
            return load(candidate, **options)
    raise FormatError("no tokenizer.json, vocab.txt or vocab.json in this directory",
                      path=str(directory))


def _load_gpt2(vocab: Path, merges: Path) -> Tokenizer:
    """GPT-2's pipeline from its two files."""
    if not merges.exists():
        raise FormatError("a vocab.json needs merges.txt beside it", path=str(merges))
    return gpt2_tokenizer(vocab, merges)


def _looks_like_vocab_json(path: Path) -> bool:
    """True for a JSON object mapping tokens to ids (not a tokenizer.json)."""
    with open(path, "rb") as file:
        head = file.read(4096).decode("utf-8", errors="ignore")
    return '"model"' not in head and '"version"' not in head and '"added_tokens"' not in head \
        and path.with_name("merges.txt").exists()
