"""Fixtures of the format tests."""

from tiktoken_files import encodings, hfcompat_cache, tiktoken_offline  # noqa: F401  (fixtures)
