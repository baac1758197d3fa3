"""Run tiktoken's own test suite with hfcompat's facade installed as `tiktoken`, and print the counts.

    python benchmarks/tiktoken_suite.py CHECKOUT [--files FILE ...] [--owner]

CHECKOUT holds tiktoken's `tests/` (e.g. `git archive HEAD tests | tar -x -C /tmp/tk` in a clone
of tiktoken at release 0.14.0). The tests are copied to a temp dir beside a shim package named
`tiktoken` that is `hfcompat.compat.tiktoken` (its submodules too); the `tiktoken_ext` plugins
installed stay visible, as in the user's environment. `--files` lays the given rank files and
GPT-2 data-gym files (recognised by their sha256) in a fresh tiktoken cache, under the names
tiktoken gives downloads, so that nothing needs the network. `--owner` runs the same tests on the
real tiktoken instead (the baseline). Extra arguments after `--` go to pytest.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from hfcompat import _backend
from hfcompat.compat.tiktoken.openai_public import (GPT2_ENCODER_JSON_SHA256, GPT2_FILES,
                                                    GPT2_VOCAB_BPE_SHA256)
from hfcompat.formats.tiktoken.encodings import KNOWN_ENCODINGS

ROOT = Path(__file__).resolve().parents[1]
# The URL tiktoken downloads a file from, by the file's sha256.
URL_BY_SHA256 = {known.sha256: known.url for known in KNOWN_ENCODINGS.values()}
URL_BY_SHA256[GPT2_VOCAB_BPE_SHA256] = GPT2_FILES + "vocab.bpe"
URL_BY_SHA256[GPT2_ENCODER_JSON_SHA256] = GPT2_FILES + "encoder.json"
SHIM = '''"""tiktoken, played by hfcompat.compat.tiktoken (written by benchmarks/tiktoken_suite.py)."""
import sys

import hfcompat.compat.tiktoken as _facade
from hfcompat.compat.tiktoken import *  # noqa: F401,F403
from hfcompat.compat.tiktoken import __version__, core, load, model, registry  # noqa: F401

for _name in ("core", "load", "model", "registry"):
    sys.modules[f"{__name__}.{_name}"] = getattr(_facade, _name)
'''


def lay_cache(cache: Path, files: list[Path]) -> list[str]:
    """Link each known file into `cache` under the sha1 of its URL; the names of those it skipped."""
    cache.mkdir(parents=True, exist_ok=True)
    skipped = []
    for path in files:
        url = URL_BY_SHA256.get(hashlib.sha256(path.read_bytes()).hexdigest())
        if url is None:
            skipped.append(str(path))
            continue
        target = cache / hashlib.sha1(url.encode()).hexdigest()
        if not target.exists():
            os.symlink(path.resolve(), target)
    return skipped


def run_suite(checkout: Path, work: Path, cache: Path, owner: bool, pytest_args: list[str]) -> Path:
    """Run pytest on a copy of the tests; the path of its JUnit report."""
    shutil.copytree(checkout / "tests", work / "suite" / "tests")
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    if not owner:
        (work / "shim" / "tiktoken").mkdir(parents=True)
        (work / "shim" / "tiktoken" / "__init__.py").write_text(SHIM)
        paths.insert(0, str(work / "shim"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, paths)), "TIKTOKEN_CACHE_DIR": str(cache)}
    report = work / "report.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                    "tests", *pytest_args], cwd=work / "suite", env=env, check=False)
    return report


def counts(report: Path) -> tuple[dict[str, int], list[str]]:
    """Passed/failed/error/skipped counts of a JUnit report, and the tests that did not pass."""
    found = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    not_passed = []
    for case in ElementTree.parse(report).iter("testcase"):
        outcome = next((child.tag for child in case if child.tag in ("failure", "error", "skipped")), "passed")
        outcome = {"failure": "failed"}.get(outcome, outcome)
        found[outcome] += 1
        if outcome != "passed":
            not_passed.append(f"{outcome}: {case.get('classname')}::{case.get('name')}")
    return found, not_passed


def main() -> int:
    """Parse the arguments, run the suite, print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a directory holding tiktoken's tests/")
    parser.add_argument("--files", type=Path, nargs="*", default=[],
                        help="rank files and GPT-2 vocab.bpe/encoder.json to cache (by sha256)")
    parser.add_argument("--owner", action="store_true", help="run on the real tiktoken (the baseline)")
    arguments = sys.argv[1:]
    cut = arguments.index("--") if "--" in arguments else len(arguments)
    options = parser.parse_args(arguments[:cut])
    options.pytest_args = arguments[cut + 1:]
    with tempfile.TemporaryDirectory(prefix="tiktoken-suite-") as temp:
        work = Path(temp)
        skipped = lay_cache(work / "cache", options.files)
        for name in skipped:
            print(f"not a file tiktoken downloads (unknown sha256), left out: {name}", file=sys.stderr)
        report = run_suite(options.checkout, work, work / "cache", options.owner, options.pytest_args)
        found, not_passed = counts(report)
    subject = "tiktoken" if options.owner else f"hfcompat.compat.tiktoken as tiktoken ({_backend.backend} backend)"
    print(f"\n{subject}: "
          f"{found['passed']} passed, {found['failed'] + found['error']} failed, {found['skipped']} skipped")
    for line in not_passed:
        print("  " + line)
    return 0 if not not_passed else 1


if __name__ == "__main__":
    sys.exit(main())
