# Both targets build the virtual environment themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The compiled core's sources: a change rebuilds it (pip install -e . compiles it in place).
CYTHON_SOURCES := $(wildcard hfcompat/*.pyx hfcompat/*/*.pyx hfcompat/*/*/*.pyx hfcompat/*/*.pxd)

.PHONY: test demo bench docs lint wheel-smoke clean

$(STAMP): pyproject.toml setup.py $(CYTHON_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'  # dev: ruff, mypy, mkdocs, build
	@$(PY) -c "import hfcompat; print('hfcompat backend:', hfcompat.backend)"
	touch $(STAMP)

# The parts of the suite that run a second time on the pure-Python backend: parity of the BPE
# model, the real tokenizers, the trained matrix, SentencePiece and tiktoken files (429 tests,
# 3-4.5 min on 2 shared cores; the whole suite before them took 11.5 min there).
PURE_PYTHON_TESTS := tests/conformance/test_refs.py tests/conformance/test_trained_matrix.py \
	tests/conformance/test_sentencepiece.py tests/conformance/test_hypothesis.py \
	tests/conformance/test_fast_path.py tests/formats/test_tiktoken.py

test: $(STAMP)
	$(PY) -m pytest -n 2 -q
	HFCOMPAT_PURE_PYTHON=1 $(PY) -m pytest -n 2 -q $(PURE_PYTHON_TESTS)

demo: $(STAMP)
	$(PY) -m hfcompat demo

bench: $(STAMP)
	$(PY) benchmarks/encode.py

# The docs site (mkdocs.yml, docs/) into site/: the generated pages first (CLI reference, conversion matrix).
docs: $(STAMP)
	$(PY) docs/generate.py
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

# ruff (rules in pyproject.toml) and mypy --strict on the public API (files in pyproject.toml).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

# Build the sdist and wheel, install the wheel in a fresh venv and run `hfcompat --version` and the demo.
wheel-smoke: $(STAMP)
	PY=$(PY) bash .ci/wheel_smoke

clean:
	rm -rf $(VENV) build dist site *.egg-info hfcompat/*.so hfcompat/*.c hfcompat/*/*.so hfcompat/*/*.c
