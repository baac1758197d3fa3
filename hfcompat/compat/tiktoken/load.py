"""`tiktoken.load` on hfcompat: rank files and GPT-2's data-gym files, read from a local path or
from the cache where tiktoken keeps what it downloads.

tiktoken names a downloaded file by the sha1 of its URL, in `TIKTOKEN_CACHE_DIR`, else
`DATA_GYM_CACHE_DIR`, else `<temp dir>/data-gym-cache` (an empty `TIKTOKEN_CACHE_DIR` turns the
cache off). The facade reads the same files and checks the same sha256, but it never downloads:
a URL whose file is not in the cache raises MissingFile naming the URL and the path to put it at.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from ...errors import FormatError, MissingFile
from ...files import atomic_write_bytes
from ...formats.tiktoken.ranks import dump_ranks, parse_ranks
from ...pipeline.bytelevel import BYTE_TO_CHAR, chars_to_bytes

__all__ = ["cache_directory", "cached_path", "check_hash", "data_gym_to_mergeable_bpe_ranks",
           "dump_tiktoken_bpe", "load_tiktoken_bpe", "read_file", "read_file_cached"]

# The order in which the data-gym format ranks single bytes: those GPT-2's alphabet keeps as
# themselves (the printable ones) first, then the others, each group by byte value.
DATA_GYM_BYTE_ORDER = sorted(range(256), key=lambda byte: (BYTE_TO_CHAR[byte] != chr(byte), byte))
# encoder.json lists these two beside the mergeable tokens.
DATA_GYM_SPECIALS = (b"<|endoftext|>", b"<|startoftext|>")


def cache_directory() -> Path | None:
    """Where tiktoken caches downloads (None: the cache is turned off)."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return Path(os.environ[variable]) if os.environ[variable] else None
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def cached_path(blobpath: str) -> Path | None:
    """The path tiktoken gives a download of `blobpath` in its cache (None: the cache is off)."""
    directory = cache_directory()
    return directory / hashlib.sha1(blobpath.encode()).hexdigest() if directory is not None else None


def check_hash(data: bytes, expected_hash: str) -> bool:
    """Whether `data` has this sha256."""
    return hashlib.sha256(data).hexdigest() == expected_hash


def read_file(blobpath: str) -> bytes:
    """The bytes of a local file; a URL raises MissingFile (the facade never downloads)."""
    if "://" in blobpath:
        raise MissingFile(_where_to_put(blobpath, None))
    with open(blobpath, "rb", buffering=0) as file:
        return file.read()


def read_file_cached(blobpath: str, expected_hash: str | None = None) -> bytes:
    """The bytes of `blobpath`: a URL from tiktoken's cache, a local path as it is; checked
    against `expected_hash` (sha256) when given."""
    path = cached_path(blobpath)
    if path is None or "://" not in blobpath:
        data = read_file(blobpath)
    elif path.exists():
        data = path.read_bytes()
        if expected_hash is not None and not check_hash(data, expected_hash):
            raise MissingFile(_where_to_put(blobpath, expected_hash, wrong=path))
    else:
        raise MissingFile(_where_to_put(blobpath, expected_hash))
    if expected_hash is not None and not check_hash(data, expected_hash):
        raise ValueError(f"Hash mismatch for data read from {blobpath} (expected {expected_hash}).")
    return data


def _where_to_put(blobpath: str, expected_hash: str | None, wrong: Path | None = None) -> str:
    """The message of a missing download: which file, and where tiktoken's cache wants it."""
    path = cached_path(blobpath)
    found = f"{wrong} holds another file (its sha256 is not {expected_hash})" if wrong else \
        f"{blobpath} is not in tiktoken's cache"
    if path is None:
        where = "the cache is turned off (TIKTOKEN_CACHE_DIR is empty): set TIKTOKEN_CACHE_DIR to a directory " \
                "and put the file there under the sha1 of its URL"
    else:
        where = f"put the file at {path} (the sha1 of its URL, in the directory TIKTOKEN_CACHE_DIR names, " \
                "else DATA_GYM_CACHE_DIR, else the temp dir's data-gym-cache)"
    check = f"; its sha256 must be {expected_hash}" if expected_hash else ""
    return f"{found} and hfcompat.compat.tiktoken never downloads: {where}{check}"


def load_tiktoken_bpe(tiktoken_bpe_file: str, expected_hash: str | None = None) -> dict[bytes, int]:
    """The token bytes -> rank map of a rank file (`base64 rank` lines)."""
    return parse_ranks(read_file_cached(tiktoken_bpe_file, expected_hash), tiktoken_bpe_file)


def dump_tiktoken_bpe(bpe_ranks: dict[bytes, int], tiktoken_bpe_file: str) -> None:
    """Write ranks as a rank file (a local path; written atomically)."""
    atomic_write_bytes(Path(tiktoken_bpe_file), dump_ranks(bpe_ranks))


def data_gym_to_mergeable_bpe_ranks(vocab_bpe_file: str, encoder_json_file: str,
                                    vocab_bpe_hash: str | None = None, encoder_json_hash: str | None = None,
                                    clobber_one_byte_tokens: bool = False) -> dict[bytes, int]:
    """The ranks of GPT-2's data-gym files: the single bytes in the format's order, then one token
    per line of vocab.bpe (its merge joined), checked against encoder.json."""
    ranks = {bytes([byte]): rank for rank, byte in enumerate(DATA_GYM_BYTE_ORDER)}
    lines = read_file_cached(vocab_bpe_file, vocab_bpe_hash).decode().split("\n")
    for number, line in enumerate(lines[1:-1], 2):  # a version line first, a newline at the end
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"expected two tokens, got {line[:60]!r}", path=vocab_bpe_file, field=f"line {number}")
        ranks[_data_gym_bytes(parts[0], vocab_bpe_file) + _data_gym_bytes(parts[1], vocab_bpe_file)] = len(ranks)
    encoder = json.loads(read_file_cached(encoder_json_file, encoder_json_hash))
    expected = {_data_gym_bytes(token, encoder_json_file): rank for token, rank in encoder.items()}
    for special in DATA_GYM_SPECIALS:
        expected.pop(special, None)
    if clobber_one_byte_tokens:
        ranks.update((token, rank) for token, rank in expected.items() if len(token) == 1)
    if ranks != expected:
        raise FormatError(f"its ids are not the ranks {vocab_bpe_file} gives (tiktoken needs ids in merge order)",
                          path=encoder_json_file)
    return ranks


def _data_gym_bytes(token: str, where: str) -> bytes:
    """The bytes of a token in GPT-2's byte alphabet."""
    data = chars_to_bytes(token)
    if data is None:
        raise FormatError(f"{token!r} has a char outside GPT-2's byte alphabet", path=where)
    return data
