"""Deprecated path, kept for one release: the encodings tiktoken knows by name are in
hfcompat.formats.tiktoken (formats/tiktoken/encodings.py)."""

from .tiktoken.encodings import KNOWN_ENCODINGS, R50K_PATTERN, KnownEncoding, encoding_for_sha256

__all__ = ["KNOWN_ENCODINGS", "R50K_PATTERN", "KnownEncoding", "encoding_for_sha256"]
