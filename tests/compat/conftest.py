"""Fixtures of the drop-in facade tests: the owners offline (tiktoken reads its cache)."""

from tiktoken_files import hfcompat_cache, tiktoken_offline  # noqa: F401  (fixtures)
