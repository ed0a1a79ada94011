# raidtune: Cockpit plugin for Linux software RAID. Targets follow Cockpit's starter-kit conventions.
PACKAGE_NAME := raidtune
PREFIX ?= /usr/local
DESTDIR ?=
NODE_MODULES_STAMP := node_modules/.package-lock.json
SOURCES := $(shell find src sim tools -type f 2>/dev/null) build.mjs package.json
JEST := node_modules/.bin/jest

.PHONY: all deps install devel-install devel-uninstall watch check check-unit check-browser lint typecheck \
        demo bench clean

all: dist/index.js

# Everything the project needs on a fresh Debian 12 / Fedora machine (apt or dnf, then npm ci).
deps:
	tools/install-deps.sh

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

dist/index.js build/mdsim.mjs build/demo.mjs &: $(NODE_MODULES_STAMP) $(SOURCES)
	node build.mjs

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME) $(DESTDIR)$(PREFIX)/share/metainfo
	cp -r dist/. $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME)/
	rm -f $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME)/*.map
	cp org.cockpit-project.$(PACKAGE_NAME).metainfo.xml $(DESTDIR)$(PREFIX)/share/metainfo/

# Serve the working tree's dist/ in your own Cockpit session (rebuilds show on reload).
devel-install: all
	mkdir -p ~/.local/share/cockpit
	ln -sfn $(CURDIR)/dist ~/.local/share/cockpit/$(PACKAGE_NAME)

devel-uninstall:
	rm -f ~/.local/share/cockpit/$(PACKAGE_NAME)

watch: $(NODE_MODULES_STAMP)
	node build.mjs --watch

lint: $(NODE_MODULES_STAMP)
	node_modules/.bin/eslint .

typecheck: $(NODE_MODULES_STAMP)
	node_modules/.bin/tsc --noEmit -p .

check-unit: $(NODE_MODULES_STAMP)
	mkdir -p test-results
	$(JEST) --selectProjects unit --ci --json --outputFile=test-results/unit.json

check-browser: all
	mkdir -p test-results
	$(JEST) --selectProjects browser --ci --runInBand --json --outputFile=test-results/browser.json

# The README's test command: installs what is missing, then every test tier.
check: deps
	$(MAKE) lint typecheck all
	rm -rf test-results
	status=0; \
	$(MAKE) check-unit || status=1; \
	$(MAKE) check-browser || status=1; \
	node tools/test-summary.mjs test-results/*.json || status=1; \
	exit $$status

# The README's run command: raidtune in a real Cockpit, against this machine's arrays or a
# simulated host when it has none. Options: make demo DEMO_ARGS="--sim --scenario raid5-reshape"
demo: deps
	$(MAKE) all
	node build/demo.mjs $(DEMO_ARGS)

bench: deps
	$(MAKE) all
	node build/bench.mjs

clean:
	rm -rf dist build test-results
