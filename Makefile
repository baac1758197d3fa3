# Both targets build the virtual environment themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -n 2 -q

demo: $(STAMP)
	$(PY) -m hfcompat demo

bench: $(STAMP)
	$(PY) benchmarks/encode.py

clean:
	rm -rf $(VENV) build *.egg-info
