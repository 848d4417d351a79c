# gcdquiz — the two commands of the README's quick start, and the helpers behind them.
# Every target installs what it needs first (libedit-dev, pkg-config, weasyprint,
# poppler-utils), so a fresh Debian/Ubuntu machine with Swift 6 needs nothing else.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_BIN := .build/release/gcdquiz

.PHONY: run test build release bench bench-progress bench-sheets verify deps clean golden

## Build (release) and start the trainer: make run ARGS="solve serial-async-async"
run: deps release
	@$(RELEASE_BIN) $(ARGS)

## Build and run every test (unit and end-to-end).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product gcdquiz

## Time the model on every bank puzzle in a release build.
bench: release
	$(RELEASE_BIN) benchmark --live --baseline

## Time the progress database (10,000 answers) in a release build.
bench-progress: release
	$(RELEASE_BIN) benchmark-progress

## Time a class set of sheets in a release build: 30 variants of 12 questions with their keys,
## as HTML, then as PDF.
bench-sheets: release
	@rm -rf .build/bench-sheets
	@bash -c 'time $(RELEASE_BIN) sheet --count 12 --variants 30 --seed 1 --output .build/bench-sheets/html >/dev/null'
	@bash -c 'time $(RELEASE_BIN) sheet --count 12 --variants 30 --seed 1 --format pdf --output .build/bench-sheets/pdf >/dev/null'

## libedit (line editing for the drill) and pkg-config, WeasyPrint (sheet --format pdf) and
## poppler-utils (pdftotext, which the tests read PDFs with), from apt when missing.
deps:
	@if ! pkg-config --exists libedit 2>/dev/null; then \
		echo "make: installing libedit-dev and pkg-config (apt-get)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libedit-dev pkg-config >/dev/null; \
	fi
	@if ! command -v weasyprint >/dev/null || ! command -v pdftotext >/dev/null; then \
		echo "make: installing weasyprint and poppler-utils (apt-get)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq weasyprint poppler-utils >/dev/null; \
	fi

clean:
	rm -rf .build

## Re-record the golden answers (Tests/Golden/solve/ID.json) after a deliberate change of the
## model; read the diff before committing it.
golden: deps
	GCDQUIZ_RECORD_GOLDEN=1 $(SWIFT) test --filter GoldenAnswerTests
