"""Every command reads a file by what it holds, whatever its name: a file under an odd name
(tokenizer.model.v1, a tokenizer.json named .bin, a rank file named vocab.txt, a GGUF without a
suffix, a BERT vocabulary without one) behaves in encode, decode, inspect, explain, evaluate, viz,
lint, verify and convert exactly as it does under its usual name: same output, same exit code,
same file written, and the same official library on verify's reference side."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import hfcompat
from hfcompat import cli
from hfcompat.cli.explore import tokenizer_name
from hfcompat.tools.verify import owner_library
from tests.conftest import FIXTURES, fixture_lines, shared_file

pytestmark = pytest.mark.conformance

CORPUS = FIXTURES / "multilingual.txt"
TEXT = "Hello, how are  you? 你好 🤗"
UNSTABLE_KEYS = ("per_s", "peak_mb", "seconds")  # timings differ between any two runs


@dataclass(frozen=True)
class OddName:
    """A tokenizer file, its usual name, the odd name it is copied under, and the names its
    companion files take with each (llama.cpp's test strings, a rank file's sidecar)."""

    case: str
    usual: str
    odd: str
    owner: str  # the library verify compares with
    companions: tuple[tuple[str, str, str], ...] = ()  # (source suffix, usual name, odd name)


CASES = [
    OddName("mistral-v1", "tokenizer.model", "tokenizer.model.v1", "sentencepiece"),
    OddName("json-as-bin", "tokenizer.json", "gpt2.bin", "tokenizers"),
    OddName("ranks-as-vocab-txt", "ranks.tiktoken", "vocab.txt", "tiktoken",
            ((".json", "ranks.tiktoken.json", "vocab.txt.json"),)),
    OddName("gguf-no-suffix", "ggml-vocab-llama-spm.gguf", "llama-spm", "llama.cpp-tests",
            ((".inp", "ggml-vocab-llama-spm.gguf.inp", "llama-spm.inp"),
             (".out", "ggml-vocab-llama-spm.gguf.out", "llama-spm.out"))),
    OddName("bert-vocab-no-suffix", "vocab.txt", "bert-words", "tokenizers"),
]
COMMANDS = ["encode", "decode", "inspect", "explain", "evaluate", "viz", "lint", "verify", "convert"]


def source_of(case: OddName, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file a case copies: a shared reference, mistral-common's model, or a small trained rank file."""
    if case.case == "mistral-v1":
        mistral_common = pytest.importorskip("mistral_common", reason="mistral-common ships tokenizer.model.v1")
        return Path(mistral_common.__file__).parent / "data" / "tokenizer.model.v1"
    if case.case == "ranks-as-vocab-txt":  # small, and its pattern in a sidecar (no known encoding)
        path = tmp_path_factory.mktemp("trained") / "trained.tiktoken"
        trained = hfcompat.train(iter(fixture_lines()), model="bytelevel_bpe", vocab_size=400, show_progress=False)
        trained.save(str(path))
        return path
    return shared_file({"json-as-bin": "refs/gpt2/tokenizer.json", "gguf-no-suffix": "refs/gguf/ggml-vocab-llama-spm.gguf",
                        "bert-vocab-no-suffix": "refs/bert-base-uncased/vocab.txt"}[case.case])


@pytest.fixture(scope="module", params=CASES, ids=[case.case for case in CASES])
def copies(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[OddName, Path, Path]:
    """(the case, the file under its usual name, the same bytes under the odd name), in directories
    of their own."""
    case: OddName = request.param
    source = source_of(case, tmp_path_factory)
    paths = []
    for kind, name in (("usual", case.usual), ("odd", case.odd)):
        directory = tmp_path_factory.mktemp(kind)
        shutil.copyfile(source, directory / name)
        for suffix, usual, odd in case.companions:
            shutil.copyfile(f"{source}{suffix}", directory / (usual if kind == "usual" else odd))
        paths.append(directory / name)
    return case, paths[0], paths[1]


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str]:
    """`hfcompat ARGS` in this process: the exit code and stdout (stderr must hold no traceback)."""
    code = cli.run(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out


def stable(value: Any) -> Any:
    """A JSON value without its timings."""
    if isinstance(value, dict):
        return {key: stable(item) for key, item in value.items() if not any(part in key for part in UNSTABLE_KEYS)}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def outcome(command: str, path: Path, capsys: pytest.CaptureFixture) -> Any:
    """What one command does with the file at `path`, with the path and its short name masked."""
    out_dir = path.parent / f"out-{command}"
    out_dir.mkdir(exist_ok=True)
    tok = str(path)
    if command == "encode":
        result = run(capsys, "encode", tok, TEXT, "--json")
    elif command == "decode":
        ids = json.loads(run(capsys, "encode", tok, TEXT, "--json")[1])["ids"]
        result = run(capsys, "decode", tok, *map(str, ids), "--keep-special")
    elif command == "inspect":
        result = run(capsys, "inspect", tok, "--json")
    elif command == "explain":
        result = run(capsys, "explain", tok, TEXT, "--json")
    elif command == "evaluate":
        code, out = run(capsys, "evaluate", tok, "--corpus", str(CORPUS), "--json")
        result = code, stable(json.loads(out))
    elif command == "viz":
        code, _ = run(capsys, "viz", tok, "--text", TEXT, "-o", str(out_dir / "page.html"))
        result = code, (out_dir / "page.html").read_text(encoding="utf-8")
    elif command == "lint":
        code, out = run(capsys, "lint", tok, "--json")
        result = code, stable(json.loads(out))
    elif command == "verify":
        corpus = [] if "llama-spm" in path.name else ["--corpus", str(CORPUS)]  # a GGUF's own test strings
        code, out = run(capsys, "verify", tok, *corpus, "--json")
        result = code, stable(json.loads(out[: out.rindex("}") + 1])), out.strip().splitlines()[-1]
    else:  # convert, checked on the corpus where a library runs both sides
        check = [] if "llama-spm" in path.name else ["--check", str(CORPUS)]
        code, out = run(capsys, "convert", tok, str(out_dir / "converted.json"), *check)
        result = code, out, (out_dir / "converted.json").read_text(encoding="utf-8")
    return mask(result, [tok, tokenizer_name(tok), str(path.parent)])


def mask(value: Any, names: list[str]) -> Any:
    """`value` with each of `names` replaced by a placeholder (the longest first), in every string."""
    if isinstance(value, str):
        for name in sorted(names, key=len, reverse=True):
            value = value.replace(name, "<TOK>")
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(mask(item, names) for item in value)
    if isinstance(value, dict):
        return {mask(key, names): mask(item, names) for key, item in value.items()}
    return value


@pytest.mark.parametrize("command", COMMANDS)
def test_odd_name_behaves_as_the_usual_name(copies: tuple[OddName, Path, Path], command: str,
                                             capsys: pytest.CaptureFixture) -> None:
    """The command's output, exit code and written file are the same under both names."""
    _, usual, odd = copies
    expected = outcome(command, usual, capsys)
    assert expected[0] == 0, expected
    assert outcome(command, odd, capsys) == expected


def test_verify_picks_the_owner_by_content(copies: tuple[OddName, Path, Path]) -> None:
    """verify's reference library is the one that owns what the file holds, under either name."""
    case, usual, odd = copies
    assert owner_library(usual) == owner_library(odd) == case.owner
