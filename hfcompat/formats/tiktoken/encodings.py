"""The encodings OpenAI publishes as rank files: pattern, special tokens, size and file hash.

tiktoken defines these in `tiktoken_ext/openai_public.py`; a rank file carries only the ranks,
so loading one needs this data. A file is recognised by the sha256 of its bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...pre_tokenizers.tiktoken_pattern import CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN

__all__ = ["CL100K_PATTERN", "O200K_PATTERN", "R50K_PATTERN", "DOWNLOAD_BASE", "KNOWN_ENCODINGS",
           "KnownEncoding", "encoding_for_sha256"]

DOWNLOAD_BASE = "https://openaipublic.blob.core.windows.net/encodings/"

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"


@dataclass(frozen=True)
class KnownEncoding:
    """One published encoding: what its rank file needs beside it."""

    name: str
    pattern: str
    special_tokens: dict[str, int] = field(hash=False)
    file_name: str  # the rank file's name under DOWNLOAD_BASE
    sha256: str  # of the rank file, as tiktoken checks it
    explicit_n_vocab: int | None = None

    @property
    def url(self) -> str:
        """Where tiktoken downloads the rank file (its cache names the file by sha1 of this)."""
        return DOWNLOAD_BASE + self.file_name


KNOWN_ENCODINGS: dict[str, KnownEncoding] = {known.name: known for known in (
    KnownEncoding("r50k_base", R50K_PATTERN, {ENDOFTEXT: 50256}, "r50k_base.tiktoken",
                  "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930", 50257),
    KnownEncoding("p50k_base", R50K_PATTERN, {ENDOFTEXT: 50256}, "p50k_base.tiktoken",
                  "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069", 50281),
    KnownEncoding("p50k_edit", R50K_PATTERN,
                  {ENDOFTEXT: 50256, FIM_PREFIX: 50281, FIM_MIDDLE: 50282, FIM_SUFFIX: 50283},
                  "p50k_base.tiktoken",
                  "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069"),
    KnownEncoding("cl100k_base", CL100K_PATTERN,
                  {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259, FIM_SUFFIX: 100260,
                   ENDOFPROMPT: 100276},
                  "cl100k_base.tiktoken",
                  "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    KnownEncoding("o200k_base", O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
                  "o200k_base.tiktoken",
                  "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),
)}


def encoding_for_sha256(digest: str) -> KnownEncoding | None:
    """The encoding whose rank file has this sha256 (p50k_base, not p50k_edit, for their shared file)."""
    for known in KNOWN_ENCODINGS.values():
        if known.sha256 == digest:
            return known
    return None
