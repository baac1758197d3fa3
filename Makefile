# Both targets build the virtual environment themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The compiled core's sources: a change rebuilds it (pip install -e . compiles it in place).
CYTHON_SOURCES := $(wildcard hfcompat/*.pyx hfcompat/*/*.pyx)

.PHONY: test demo bench clean

$(STAMP): pyproject.toml setup.py $(CYTHON_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@$(PY) -c "import hfcompat; print('hfcompat backend:', hfcompat.backend)"
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -n 2 -q

demo: $(STAMP)
	$(PY) -m hfcompat demo

bench: $(STAMP)
	$(PY) benchmarks/encode.py

clean:
	rm -rf $(VENV) build *.egg-info hfcompat/*/*.so hfcompat/*/*.c
