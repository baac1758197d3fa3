"""`hfcompat encode`, `decode` and `inspect`: one tokenizer, one text at a time."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..errors import HfcompatError
from ..formats.detect import DIRECTORY, detect_format
from ..tools.explain import describe
from ..tools.viz import ansi, encode_for_view, is_byte_level
from .options import add_load_options, load_tokenizer

ADDED_SHOWN = 5  # added tokens listed by `inspect`


def add_commands(commands: Any) -> None:
    """The encode, decode and inspect subcommands."""
    encode = commands.add_parser("encode", help="encode a text and print its tokens and ids")
    encode.add_argument("tokenizer", metavar="TOK", help="tokenizer.json, vocab.txt, vocab.json or a directory")
    encode.add_argument("text", metavar="TEXT")
    encode.add_argument("--pair", metavar="TEXT", help="second sequence of a pair")
    encode.add_argument("--no-special", action="store_true", help="do not add special tokens")
    encode.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    encode.add_argument("--show", action="store_true", help="also show the tokens over the text in colour")
    add_load_options(encode)
    encode.set_defaults(handler=cmd_encode)

    decode = commands.add_parser("decode", help="decode ids back into text")
    decode.add_argument("tokenizer", metavar="TOK")
    decode.add_argument("ids", metavar="ID", type=int, nargs="+")
    decode.add_argument("--keep-special", action="store_true", help="keep special tokens in the text")
    add_load_options(decode)
    decode.set_defaults(handler=cmd_decode)

    inspect = commands.add_parser("inspect", help="show a tokenizer's components and vocabulary")
    inspect.add_argument("tokenizer", metavar="TOK")
    inspect.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_load_options(inspect)
    inspect.set_defaults(handler=cmd_inspect)


def cmd_encode(args: argparse.Namespace) -> int:
    """`encode`: tokens and ids of a text (or a pair)."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    encoding = tokenizer.encode(args.text, args.pair, add_special_tokens=not args.no_special)
    if args.json:
        data = {"ids": list(encoding.ids), "tokens": list(encoding.tokens),
                "offsets": [list(o) for o in encoding.offsets]}
        print(json.dumps(data, ensure_ascii=False))
    else:
        print("tokens:", json.dumps(list(encoding.tokens), ensure_ascii=False))
        print("ids:   ", json.dumps(list(encoding.ids)))
    if args.show:
        print(ansi(args.text, encode_for_view(tokenizer, args.text), is_byte_level(tokenizer)))
    return 0


def cmd_decode(args: argparse.Namespace) -> int:
    """`decode`: the text of a list of ids."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    print(tokenizer.decode(args.ids, skip_special_tokens=not args.keep_special))
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    """`inspect`: format, model, vocabulary size, components, added tokens, and what it converts to."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    summary = {"format": file_format(Path(args.tokenizer), args.format), **summarize(tokenizer),
               "converts_to": conversion_targets(tokenizer)}
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
        return 0
    added = summary["added_tokens"]
    shown = ", ".join(f"{t['content']!r}={t['id']}" + (" (special)" if t["special"] else "")
                      for t in summary["first_added_tokens"])
    more = f", ... {added - ADDED_SHOWN} more" if added > ADDED_SHOWN else ""
    targets = "; ".join(f"{target}: {'yes' if verdict is True else 'no (' + verdict + ')'}"
                        for target, verdict in summary["converts_to"].items())
    rows = [
        ("format", summary["format"]),
        ("model", summary["model"]),
        ("vocab size", f"{summary['vocab_size']} ({summary['vocab_size_with_added']} with added tokens)"),
        ("normalizer", summary["normalizer"]),
        ("pre-tokenizer", summary["pre_tokenizer"]),
        ("post-processor", summary["post_processor"]),
        ("decoder", summary["decoder"]),
        ("added tokens", f"{added} ({summary['special_tokens']} special)" + (f": {shown}{more}" if added else "")),
        ("converts to", targets),
    ]
    for label, value in rows:
        print(f"{label + ':':<16}{value}")
    return 0


# target -> file name written by `conversion_targets` (its suffix picks the writer)
CONVERSION_TARGETS = {"tokenizer.json": "tokenizer.json", "transformers directory": "pretrained",
                      "SentencePiece .model": "tokenizer.model", "tiktoken": "ranks.tiktoken"}


# detect_format's name of a file format -> what `inspect` calls it
FORMAT_LABELS = {"sentencepiece": "SentencePiece model", "tiktoken": "tiktoken ranks", "gguf": "GGUF (llama.cpp)",
                 "tekken.json": "tekken.json (Mistral)", "vocab.json": "BPE vocab.json + merges.txt",
                 "merges.txt": "BPE vocab.json + merges.txt", "vocab.txt": "WordPiece vocab.txt",
                 "hfcompat.json": "hfcompat tokenizer file", "tokenizer.json": "tokenizer.json"}


def file_format(path: Path, format: str | None = None) -> str:
    """What kind of tokenizer file (or directory) a path is, read by content as `load` reads it."""
    kind = detect_format(path, format)
    if kind != DIRECTORY:
        return FORMAT_LABELS[kind]
    config = path / "tokenizer_config.json"
    if config.is_file():
        try:
            name = json.loads(config.read_text(encoding="utf-8")).get("tokenizer_class")
        except (ValueError, UnicodeDecodeError):
            name = None
        return f"transformers directory ({name or 'no tokenizer_class'})"
    return "directory"


def conversion_targets(tokenizer: Any) -> dict[str, Any]:
    """Each target format -> True, or the reason it cannot hold this tokenizer exactly.

    Found by writing each target into a temporary directory: the writers own the rules.
    """
    import tempfile
    verdicts: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="hfcompat-inspect-") as scratch:
        for target, name in CONVERSION_TARGETS.items():
            try:
                tokenizer.save(str(Path(scratch) / name))
                verdicts[target] = True
            except HfcompatError as error:
                verdicts[target] = str(getattr(error, "message", error)).splitlines()[0]
    return verdicts


def summarize(tokenizer: Any) -> dict[str, Any]:
    """The facts `inspect` prints, as a JSON-ready dict."""
    added = sorted(tokenizer.get_added_tokens_decoder().items())
    return {
        "model": type(tokenizer.model).__name__,
        "vocab_size": tokenizer.get_vocab_size(with_added_tokens=False),
        "vocab_size_with_added": tokenizer.get_vocab_size(with_added_tokens=True),
        "normalizer": describe(tokenizer.normalizer),
        "pre_tokenizer": describe(tokenizer.pre_tokenizer),
        "post_processor": describe(tokenizer.post_processor),
        "decoder": describe(tokenizer.decoder),
        "added_tokens": len(added),
        "special_tokens": sum(1 for _, token in added if token.special),
        "first_added_tokens": [{"id": token_id, "content": token.content, "special": token.special}
                               for token_id, token in added[:ADDED_SHOWN]],
    }
