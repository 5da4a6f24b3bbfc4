# Set-up and the two README commands. Everything installs from nothing:
# Debian's Pango libraries for WeasyPrint (when missing), then a virtualenv.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test demo deps system-deps bench bench-render clean

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $(STAMP)

deps: $(STAMP)

# WeasyPrint needs Pango >= 1.44 (Debian: libpango-1.0-0, libpangoft2-1.0-0), and
# subsets fonts faster with HarfBuzz-Subset (libharfbuzz-subset0) than with fontTools.
system-deps:
	@if ! ldconfig -p 2>/dev/null | grep -q libpangoft2-1.0 || ! ldconfig -p 2>/dev/null | grep -q libharfbuzz-subset; then \
		echo "installing Pango and HarfBuzz-Subset for WeasyPrint (apt-get)"; \
		apt-get update -qq && apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fontconfig; \
	fi

test: deps
	$(PY) -m pytest

demo: deps
	$(VENV)/bin/chargen generate --system d100 --seed 42 --count 6 --format json,html,pdf \
		--party-name "The Red Lanterns" -o demo-party --force
	@echo "open demo-party/index.html or print demo-party/party.pdf"

bench: deps
	$(PY) bench/bench_generate.py

bench-render: deps
	$(PY) bench/bench_render.py

clean:
	rm -rf $(VENV) demo-party
