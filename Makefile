# Set-up and the two README commands. Everything installs from nothing: the
# system libraries WeasyPrint loads (checked by loading them; installed with
# apt-get where that is possible, else named for you to install), then a
# virtualenv. pip's output goes to .venv/install.log, shown only if it fails.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo deps bytecode system-deps bench bench-render bench-party pictures clean

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	@echo "installing chargen and its Python packages into $(VENV) (log: $(VENV)/install.log)"
	@python3 -m venv $(VENV)
	@( $(PY) -m pip install --upgrade pip && $(PY) -m pip install -e '.[test]' ) > $(VENV)/install.log 2>&1 \
		|| { tail -n 30 $(VENV)/install.log; echo "pip install failed; the whole log: $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

deps: $(STAMP)

# chargen's own modules byte-compiled before a run: pip compiles a package it installs, but not an
# editable one, and where PYTHONDONTWRITEBYTECODE is set (as on this project's CI machine) Python
# never writes the cache itself, so every chargen process (and its fork server) compiled its 130-odd
# modules again: 0.3 s of CPU a process, and the suite starts hundreds. Up-to-date files are skipped.
bytecode: deps
	@$(PY) -m compileall -q chargen

# WeasyPrint needs Pango >= 1.44 and PangoFT2, and subsets fonts faster with
# HarfBuzz-Subset: tools/system_libraries.py checks them by loading them. It
# also installs (apt-get, where possible) the Noto fonts names in other scripts
# fall back on (fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji) and
# Debian's chromium for the browser tests and poppler-utils (pdftotext, pdftoppm).
system-deps:
	@python3 tools/system_libraries.py --install

# Two worker processes (pytest-xdist), a test file's tests in one of them, in order (the help
# examples and README recipes run in sequence), the longest files first (tests/conftest.py's
# LONGEST_FIRST, kept in that order by pyproject's --no-loadscope-reorder); each test's folders
# under one short base folder: a worker pool's socket path must stay under the 108 characters
# AF_UNIX allows.
test: bytecode
	$(PY) -m pytest -n 2 --dist loadfile --basetemp="$$(mktemp -d)/t"

demo: bytecode
	$(VENV)/bin/chargen generate --system d100 --seed 42 --count 6 --format json,html,pdf \
		--party-name "The Red Lanterns" -o demo-party --force
	@echo "open demo-party/index.html or print demo-party/party.pdf"
	@echo "run chargen as $(VENV)/bin/chargen, or put it on your PATH with: . $(VENV)/bin/activate"

bench: bytecode
	$(PY) bench/bench_generate.py

bench-render: bytecode
	$(PY) bench/bench_render.py

# The README's pictures of each layout (docs/layouts/*.png), drawn with poppler's pdftoppm.
pictures: deps
	$(PY) tools/pictures.py

bench-party: bytecode
	$(PY) bench/bench_party.py

clean:
	rm -rf $(VENV) demo-party
