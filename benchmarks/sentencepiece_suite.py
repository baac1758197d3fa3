"""Run sentencepiece's own Python tests against hfcompat's drop-in and against sentencepiece.

    python benchmarks/sentencepiece_suite.py /path/to/sentencepiece-0.2.3/test [--only facade|owner] [-k EXPR]

The test directory is that of the sentencepiece sdist (`pip download --no-deps --no-binary :all:
sentencepiece==0.2.3`, untarred: test/ holds sentencepiece_test.py, numpy_test.py and the data
they read). Each run copies it into a fresh temporary directory; for the facade a package named
`sentencepiece` that stands for `hfcompat.compat.sentencepiece` goes first on sys.path. pytest
runs there (the tests find their data beside their own file) and the pass/fail counts are
printed per run. Nothing of sentencepiece's is copied into this repository.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TEST_FILES = ("sentencepiece_test.py", "numpy_test.py")
REPO = Path(__file__).resolve().parents[1]
SHIM = '''"""Stands for hfcompat.compat.sentencepiece under the name sentencepiece."""
import sys
import hfcompat.compat.sentencepiece as _facade

for _name in ("sentencepiece_pb2", "sentencepiece_model_pb2"):
    sys.modules[f"{__name__}.{_name}"] = getattr(_facade, _name)
sys.modules[__name__] = _facade
'''
SUMMARY = re.compile(r"(\d+) (passed|failed|error|errors|skipped)")


def run(test_dir: Path, facade: bool, extra: list[str]) -> tuple[dict[str, int], str]:
    """pytest over sentencepiece's tests in a temporary copy; (counts by outcome, the output)."""
    with tempfile.TemporaryDirectory(prefix="spm-suite-") as work:
        tests = Path(work) / "test"
        shutil.copytree(test_dir, tests)
        env = dict(os.environ)
        path = [str(REPO)]
        if facade:
            shim = Path(work) / "shim" / "sentencepiece"
            shim.mkdir(parents=True)
            (shim / "__init__.py").write_text(SHIM)
            path.insert(0, str(shim.parent))
        env["PYTHONPATH"] = os.pathsep.join(path + [env.get("PYTHONPATH", "")])
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf",
                   *(str(tests / name) for name in TEST_FILES if (tests / name).exists()), *extra]
        done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    output = done.stdout + done.stderr
    counts = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    tail = output.strip().splitlines()[-1] if output.strip() else ""
    for number, outcome in SUMMARY.findall(tail):
        counts["error" if outcome.startswith("error") else outcome] += int(number)
    return counts, output


def main() -> int:
    """Run the owner's suite on the chosen libraries and print the counts (and the failures)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("test_dir", type=Path, help="sentencepiece's python test directory")
    parser.add_argument("--only", choices=("facade", "owner"), help="run one side only")
    parser.add_argument("-k", help="pytest -k expression")
    parser.add_argument("-v", "--verbose", action="store_true", help="print pytest's whole output")
    args = parser.parse_args()
    extra = ["-k", args.k] if args.k else []
    for name, facade in (("sentencepiece (owner)", False), ("hfcompat.compat.sentencepiece", True)):
        if args.only and (args.only == "facade") != facade:
            continue
        counts, output = run(args.test_dir, facade, extra)
        total = sum(counts.values())
        print(f"{name}: {counts['passed']}/{total} passed, {counts['failed']} failed, "
              f"{counts['error']} errors, {counts['skipped']} skipped")
        failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
        for line in (output.splitlines() if args.verbose else failed):
            print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
