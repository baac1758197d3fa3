"""What a fresh process imports: `import hfcompat` builds nothing, and a load or a command brings in
the components it uses, not every one (issue 32). Counted in a new interpreter, not timed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import shared_file

# Modules that a process which never trains, renders a chat template or reads a .model must not
# import: each costs the cold start without serving it.
NOT_NEEDED_TO_ENCODE = ("hfcompat.trainers", "tqdm", "jinja2", "hfcompat.pipeline.jinja_sandbox",
                        "hfcompat.pipeline.chat_template", "concurrent.futures")


def imported_after(code: str) -> set[str]:
    """The modules a new interpreter holds after running `code`."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_import_hfcompat_builds_nothing() -> None:
    """`import hfcompat` loads the package and its backend switch, no subpackage."""
    found = {name for name in imported_after("import hfcompat") if name.startswith("hfcompat")}
    assert found == {"hfcompat", "hfcompat._backend"}


def test_public_names_load_on_first_use() -> None:
    """Every public name is there, and reading one loads its module."""
    code = "import hfcompat\nnames = [getattr(hfcompat, name) for name in hfcompat.__all__]"
    found = imported_after(code)
    assert {"hfcompat.tokenizer", "hfcompat.formats", "hfcompat.tools"} <= found


def test_loading_a_byte_level_bpe_imports_only_its_components() -> None:
    """GPT-2's tokenizer.json: no Unigram, WordPiece, charsmap, script table, trainer or Jinja."""
    path = shared_file("refs/gpt2/tokenizer.json")
    found = imported_after(f"import hfcompat\nhfcompat.load({str(path)!r}).encode('hello world')")
    unneeded = {"hfcompat.models.unigram", "hfcompat.models.wordpiece", "hfcompat.normalizers.precompiled",
                "hfcompat.pre_tokenizers.unicode_scripts", "hfcompat.pre_tokenizers.bert", "hfcompat.normalizers.charsmap",
                "hfcompat.segmentation.pre_tokenizer", *NOT_NEEDED_TO_ENCODE}
    assert {"hfcompat.models.bpe", "hfcompat.pre_tokenizers.byte_level"} <= found
    assert not unneeded & found


@pytest.mark.parametrize("name", ["llama2/tokenizer.model", "tiktoken/cl100k_base.tiktoken", "gpt2/tokenizer.json"])
def test_the_encode_command_skips_training_and_templates(name: str) -> None:
    """`hfcompat encode FILE TEXT` loads no trainer, tqdm, jinja2 or lint check, nor a model the file does not hold."""
    path = shared_file(f"refs/{name}")
    code = f"from hfcompat.cli import run\nrun(['encode', {str(path)!r}, 'hello world'])"
    found = imported_after(code)
    assert "hfcompat.cli.tokens" in found
    assert not {*NOT_NEEDED_TO_ENCODE, "hfcompat.tools.lint", "hfcompat.models.wordpiece"} & found


def test_loading_a_model_file_imports_its_reader_not_its_writer() -> None:
    """Llama 2's .model: the reader, no writer (nor trainer, template or thread pool)."""
    path = shared_file("refs/llama2/tokenizer.model")
    found = imported_after(f"import hfcompat\nhfcompat.load({str(path)!r}).encode('hello world')")
    assert "hfcompat.formats.sentencepiece.read" in found
    assert not {"hfcompat.formats.sentencepiece.write", *NOT_NEEDED_TO_ENCODE} & found
