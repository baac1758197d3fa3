"""Shared test setup: where ../shared lives, corpus samples, the fixtures, hypothesis profiles, backends.

The whole suite runs on the backend the process selects (the compiled core when it is built;
HFCOMPAT_PURE_PYTHON=1 forces pure Python). A test that takes the `backend` fixture runs once per
backend this installation has; HFCOMPAT_REQUIRE_COMPILED=1 (CI) makes a missing compiled core
an error instead of a skip.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

# Threads in the oracle only add noise and fork warnings to a test run.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from hfcompat import _backend  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FIXTURES = REPO / "fixtures"
SHARED_MISSING = "../shared is absent: conformance data lives beside the repo (CI always has it)"

CORPORA = {
    "botchan": "corpora/botchan.txt",
    "taylorswift": "corpora/taylorswift.txt",
    "wagahaiwa": "corpora/wagahaiwa_nekodearu.txt",
    "pku_test": "corpora/icwb2/pku_test.utf8",
}

REQUIRE_COMPILED = os.environ.get("HFCOMPAT_REQUIRE_COMPILED", "") not in ("", "0")

# Lines per corpus in a conformance sample; HFCOMPAT_SAMPLE_LINES scales every sample.
SAMPLE_LINES = int(os.environ.get("HFCOMPAT_SAMPLE_LINES", "200"))

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=40,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("dev", deadline=None, max_examples=400, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    """Register the project's marks so that -m selects them and typos fail."""
    config.addinivalue_line(
        "markers", "conformance: parity with the official libraries on real files (needs ../shared)"
    )
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say up front whether the conformance data is there and what is under test."""
    subject = os.environ.get("HFCOMPAT_CONFORMANCE_SUBJECT", "hfcompat")
    lines = [f"shared data: {SHARED if SHARED.is_dir() else 'ABSENT (conformance tests skip)'}"]
    lines.append(f"conformance subject: {subject}, {SAMPLE_LINES} lines per corpus")
    lines.append(f"hfcompat backend: {_backend.backend} (built: {', '.join(_backend.available())})")
    if subject == "oracle":
        lines.append("WARNING: oracle self-check mode, tokenizers is compared with itself")
    return lines


def shared_dir() -> Path:
    """Return ../shared, or skip the calling test when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    return SHARED


def shared_file(relative: str) -> Path:
    """A file of ../shared (e.g. "refs/gpt2/vocab.json"), or skip the calling test when absent."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"../shared/{relative} is absent: conformance data lives beside the repo "
                    "(CI always has it)")
    return path


def read_lines(path: Path) -> list[str]:
    """Lines of a UTF-8 file split on "\\n" only, so "\\r" and other breaks stay in their line."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def spread(lines: list[str], n: int) -> list[str]:
    """Up to n lines taken at even steps through the list (deterministic, covers the whole file)."""
    if n >= len(lines):
        return list(lines)
    step = len(lines) / n
    return [lines[int(i * step)] for i in range(n)]


@lru_cache(maxsize=None)
def corpus_lines(name: str) -> tuple[str, ...]:
    """Every line of one corpus of ../shared/corpora (skips when ../shared is absent)."""
    return tuple(read_lines(shared_dir() / CORPORA[name]))


def corpus_sample(name: str, n: int = SAMPLE_LINES) -> list[str]:
    """n evenly spread lines of one corpus."""
    return spread(list(corpus_lines(name)), n)


@lru_cache(maxsize=None)
def fixture_lines() -> tuple[str, ...]:
    """The lines of fixtures/multilingual.txt, "\\r" and all."""
    return tuple(read_lines(FIXTURES / "multilingual.txt"))


def fixture_texts() -> list[str]:
    """Fixture lines plus blocks of four consecutive lines joined by "\\n" (multi-line inputs)."""
    lines = list(fixture_lines())
    blocks = ["\n".join(lines[i : i + 4]) for i in range(0, len(lines), 4)]
    return lines + blocks


def mixed_sample(per_corpus: int = SAMPLE_LINES) -> list[str]:
    """per_corpus lines of each corpus followed by every fixture text."""
    texts: list[str] = []
    for name in CORPORA:
        texts.extend(corpus_sample(name, per_corpus))
    return texts + fixture_texts()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once when CI asks for the compiled core and this installation lacks it."""
    if REQUIRE_COMPILED and _backend.COMPILED not in _backend.available():
        raise pytest.UsageError("HFCOMPAT_REQUIRE_COMPILED is set but the compiled core is not built "
                                "(pip install -e . printed why)")


@pytest.fixture(params=[_backend.COMPILED, _backend.PYTHON])
def backend(request: pytest.FixtureRequest):
    """Run the test on each backend in turn (the compiled one skips when it is not built)."""
    if request.param not in _backend.available():
        pytest.skip("the compiled core is not built in this installation")
    if request.param == _backend.COMPILED and _backend.pure_python_forced():
        pytest.skip(f"{_backend.PURE_PYTHON_VARIABLE} is set: nothing compiled runs")
    with _backend.use(request.param):
        yield request.param


@pytest.fixture(scope="session")
def shared() -> Path:
    """The ../shared directory; tests using it skip when it is absent."""
    return shared_dir()


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The project's own fixtures directory."""
    return FIXTURES


@pytest.fixture(scope="session")
def corpora(shared: Path):
    """corpus_sample as a fixture: corpora("botchan", 50) -> 50 evenly spread lines."""
    return corpus_sample


@pytest.fixture(scope="session")
def multilingual() -> list[str]:
    """Every fixture text (lines and multi-line blocks)."""
    return fixture_texts()


@pytest.fixture(scope="session")
def mixed(shared: Path):
    """mixed_sample as a fixture: mixed(40) -> 40 lines of each corpus plus the fixture texts."""
    return mixed_sample
