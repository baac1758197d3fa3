"""`hfcompat encode`, `decode` and `inspect`: one tokenizer, one text at a time."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from ..errors import HfcompatError, SpecialTokenError
from ..formats.detect import DIRECTORY, detect_format
from ..tools.explain import describe
from ..tools.viz import ansi, encode_for_view, is_byte_level, plain
from .options import CliError, InputError, add_load_options, load_tokenizer, read_text, wants_colour

ADDED_SHOWN = 5  # added tokens listed by `inspect`


def add_commands(commands: Any) -> None:
    """The encode, decode and inspect subcommands."""
    encode = commands.add_parser(
        "encode", help="encode a text (or each line of files / standard input) and print its tokens and ids",
        description="Encode TEXT and print its tokens and ids. With - (standard input) or --file, each line is one "
                    "text (without its newline) and gives one line: its ids, or with --json a JSON object. With "
                    "--count FILE..., each whole file's token count is printed, then the total.")
    encode.add_argument("tokenizer", metavar="TOK", help="tokenizer.json, vocab.txt, vocab.json or a directory")
    encode.add_argument("text", metavar="TEXT", nargs="*", help='the text ("-": the lines of standard input)')
    encode.add_argument("--file", metavar="PATH", action="append", default=[], type=Path,
                        help="encode each line of a file (repeatable; a directory: each file in it)")
    encode.add_argument("--count", metavar="FILE", nargs="+", type=Path,
                        help="print the number of tokens of each whole file (and --file; a directory: each file in "
                             'it; "-": standard input), then the total')
    encode.add_argument("--pair", metavar="TEXT", help="second sequence of a pair")
    encode.add_argument("--no-special", action="store_true", help="do not add special tokens")
    encode.add_argument("--allowed-special", metavar="TOKENS", type=special_set,
                        help='special tokens a text may hold as tokens: "all" or a comma-separated list (rank files '
                             "and tekken; default none)")
    encode.add_argument("--disallowed-special", metavar="TOKENS", type=special_set,
                        help='special tokens whose text is an error: "all" (default), "none" or a comma-separated list')
    encode.add_argument("--json", action="store_true", help="print ids, tokens and offsets as JSON")
    encode.add_argument("--show", action="store_true",
                        help="also show the tokens over the text (in colour on a terminal unless NO_COLOR is set)")
    add_load_options(encode)
    encode.set_defaults(handler=cmd_encode, texts_after_options=True)

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


def special_set(value: str) -> str | frozenset[str]:
    """argparse type: "all", "none" (no token) or a comma-separated list of special tokens."""
    if value == "all":
        return "all"
    return frozenset() if value == "none" else frozenset(token for token in value.split(",") if token)


def cmd_encode(args: argparse.Namespace) -> int:
    """`encode`: tokens and ids of a text (or a pair), of each line of files or standard input, or token counts."""
    if args.count:
        return _print_counts(args)
    if args.file or args.text == ["-"]:
        if args.text not in ([], ["-"]) or args.pair is not None or args.show:
            raise CliError("give TEXT, - or --file (--pair and --show take TEXT)")
        tokenizer = load_tokenizer(args.tokenizer, args)
        for line in _input_lines(args):
            encoding = _encode(tokenizer, line, None, args)
            print(json.dumps(_encoding_dict(encoding), ensure_ascii=False) if args.json
                  else " ".join(map(str, encoding.ids)))
        return 0
    if len(args.text) != 1:
        raise CliError("give one TEXT, - (standard input) or --file PATH")
    tokenizer = load_tokenizer(args.tokenizer, args)
    text = args.text[0]
    encoding = _encode(tokenizer, text, args.pair, args)
    if args.json:
        print(json.dumps(_encoding_dict(encoding), ensure_ascii=False))
    else:
        print("tokens:", json.dumps(list(encoding.tokens), ensure_ascii=False))
        print("ids:   ", json.dumps(list(encoding.ids)))
    if args.show:
        view = ansi if wants_colour(sys.stdout) else plain
        print(view(text, encode_for_view(tokenizer, text), is_byte_level(tokenizer)))
    return 0


def _encode(tokenizer: Any, text: str, pair: str | None, args: argparse.Namespace) -> Any:
    """The encoding of a text with the command line's special-token options."""
    specials = {name: getattr(args, name) for name in ("allowed_special", "disallowed_special")
                if getattr(args, name) is not None}
    try:
        return tokenizer.encode(text, pair, add_special_tokens=not args.no_special, **specials)
    except SpecialTokenError as error:
        raise InputError(f"{str(error).splitlines()[0]} (--allowed-special all encodes it as its token, --disallowed-special none as "
                         "text)") from None


def _encoding_dict(encoding: Any) -> dict[str, Any]:
    """ids, tokens and offsets of an encoding, JSON-ready."""
    return {"ids": list(encoding.ids), "tokens": list(encoding.tokens), "offsets": [list(o) for o in encoding.offsets]}


def _input_files(names: list[Path]) -> list[Path]:
    """The files named, a directory as the files in it (sorted, hidden ones left out); checked before any work."""
    files = []
    for path in names:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file() and not any(
                part.startswith(".") for part in p.relative_to(path).parts))
        elif path.is_file() or str(path) == "-":
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    return files


def _read_input(path: Path) -> str:
    """The text of a file, or of standard input for "-"."""
    return sys.stdin.read() if str(path) == "-" else read_text(path)


def _input_lines(args: argparse.Namespace) -> Iterator[str]:
    """Each line (without its newline) of standard input and the --file files, in order."""
    for path in _input_files([Path(name) for name in args.text] + args.file):
        yield from _read_input(path).splitlines()


def _print_counts(args: argparse.Namespace) -> int:
    """`encode --count`: the tokens of each whole file and the total, as `wc` prints counts."""
    if args.text or args.pair is not None or args.show:
        raise CliError("--count takes files, not TEXT, --pair or --show")
    files = _input_files(args.count + args.file)
    tokenizer = load_tokenizer(args.tokenizer, args)
    tokenizer.no_truncation()  # a count is of the whole text, whatever length the file pads or cuts to
    tokenizer.no_padding()
    counts = {str(path): len(_encode(tokenizer, _read_input(path), None, args).ids) for path in files}
    if args.json:
        print(json.dumps({"files": counts, "total": sum(counts.values())}, ensure_ascii=False))
        return 0
    for name, count in counts.items():
        print(f"{count}\t{name}")
    if len(counts) > 1:
        print(f"{sum(counts.values())}\ttotal")
    return 0


def cmd_decode(args: argparse.Namespace) -> int:
    """`decode`: the text of a list of ids (an id the tokenizer does not have is an error naming it)."""
    tokenizer = load_tokenizer(args.tokenizer, args)
    unknown = [token_id for token_id in args.ids if tokenizer.id_to_token(token_id) is None]
    if unknown:
        raise InputError(f"{args.tokenizer}: no token has id {unknown[0]} (ids run from 0 to "
                         f"{tokenizer.get_vocab_size(with_added_tokens=True) - 1}, with gaps where a file leaves them)")
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
