# raidtune: Cockpit plugin for Linux software RAID. Targets follow Cockpit's starter-kit conventions.
PACKAGE_NAME := raidtune
PREFIX ?= /usr/local
DESTDIR ?=
# raidtune-metrics and its systemd units (metrics/): the RPM passes its own macros' values.
LIBEXECDIR ?= $(PREFIX)/libexec
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
UNITDIR ?= $(PREFIX)/lib/systemd/system
NODE_MODULES_STAMP := node_modules/.package-lock.json
SOURCES := $(shell find src sim tools -type f 2>/dev/null) build.mjs package.json $(wildcard po/*.po)
JEST := node_modules/.bin/jest
VERSION := $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' package.json)
# The source keeps the project's file name; it installs under its AppStream id (org.cockpit_project:
# ids avoid hyphens), the name AppStream tools look for.
METAINFO_SRC := org.cockpit-project.$(PACKAGE_NAME).metainfo.xml
METAINFO := org.cockpit_project.$(PACKAGE_NAME).metainfo.xml
SPEC := cockpit-$(PACKAGE_NAME).spec
TARBALL := $(PACKAGE_NAME)-$(VERSION).tar.xz
# Every file in the tarball gets this time: the last commit's (or the caller's SOURCE_DATE_EPOCH).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || stat -c %Y package.json)
# rpmbuild in ./rpmbuild. A distribution without an RPM database (Debian: the `rpm` package's
# rpmbuild) cannot check BuildRequires: skip that check there.
RPMBUILD := rpmbuild --define "_topdir $(CURDIR)/rpmbuild" $(if $(shell rpm -q --quiet make 2>/dev/null && echo yes),,--nodeps)

.PHONY: all deps install devel-install devel-uninstall watch check check-installs check-unit \
        check-browser check-vm lint typecheck test-durations \
        demo bench soak bench-rebuild bench-disk bench-eta bench-eta-replay clean install-files install-metrics install-history po-update dist srpm rpm screenshots

all: dist/index.js

# Everything the project needs on a fresh Debian 12 / Fedora machine (apt or dnf, then npm ci).
deps:
	tools/install-deps.sh

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

dist/index.js build/mdsim.mjs build/demo.mjs build/bundled-provides.txt &: $(NODE_MODULES_STAMP) $(SOURCES)
	node build.mjs

install: all
	$(MAKE) install-files

# Copies what `all` built, without building it: the RPM's %install runs this from the release
# tarball, which ships dist/ built (no Node.js there). Only the metainfo is made here (msgfmt).
install-files: build/$(METAINFO)
	mkdir -p $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME) $(DESTDIR)$(PREFIX)/share/metainfo
	cp -r dist/. $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME)/
	rm -f $(DESTDIR)$(PREFIX)/share/cockpit/$(PACKAGE_NAME)/*.map
	install -m 644 build/$(METAINFO) $(DESTDIR)$(PREFIX)/share/metainfo/$(METAINFO)
	$(MAKE) install-metrics
	$(MAKE) install-history

# raidtune-history: the sync history recorder, its service and timer (off until the page turns it on).
# raidtune-check-window: pauses and resumes md checks for a window where the host has no mdcheck, and
# holds the window's limits; its template service and two timers (off until the page sets a window).
install-history:
	install -D -m 755 recorder/raidtune-history $(DESTDIR)$(LIBEXECDIR)/raidtune/raidtune-history
	install -m 755 recorder/raidtune-check-window $(DESTDIR)$(LIBEXECDIR)/raidtune/raidtune-check-window
	mkdir -p $(DESTDIR)$(UNITDIR)
	for unit in raidtune-history.service raidtune-check-window@.service; do \
	    sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' recorder/$$unit.in > $(DESTDIR)$(UNITDIR)/$$unit && \
	    chmod 644 $(DESTDIR)$(UNITDIR)/$$unit || exit 1; \
	done
	install -m 644 recorder/raidtune-history.timer recorder/raidtune-check-window-start.timer \
	    recorder/raidtune-check-window-end.timer $(DESTDIR)$(UNITDIR)/

# raidtune-metrics for node_exporter's textfile collector: the script, its service and timer (off
# until enabled), its settings (kept when present) and the example alert rules.
install-metrics:
	install -D -m 755 metrics/raidtune-metrics $(DESTDIR)$(LIBEXECDIR)/raidtune/raidtune-metrics
	mkdir -p $(DESTDIR)$(UNITDIR)
	sed -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' metrics/raidtune-metrics.service.in \
	    > $(DESTDIR)$(UNITDIR)/raidtune-metrics.service
	chmod 644 $(DESTDIR)$(UNITDIR)/raidtune-metrics.service
	install -m 644 metrics/raidtune-metrics.timer $(DESTDIR)$(UNITDIR)/raidtune-metrics.timer
	test -e $(DESTDIR)$(SYSCONFDIR)/raidtune/metrics.env || \
	    install -D -m 644 metrics/metrics.env $(DESTDIR)$(SYSCONFDIR)/raidtune/metrics.env
	install -D -m 644 metrics/raidtune-alerts.yml $(DESTDIR)$(PREFIX)/share/raidtune/prometheus/raidtune-alerts.yml

# The AppStream metainfo with every translation merged in (msgfmt --xml, gettext >= 0.19.7, reads
# po/LINGUAS and po/*.po); what gets installed.
build/$(METAINFO): $(METAINFO_SRC) po/LINGUAS $(wildcard po/*.po)
	mkdir -p build
	msgfmt --xml -d po --template $(METAINFO_SRC) -o $@

# The translation template: every user-visible string of src/ (_, N_, ngettext), the manifest's
# label and keywords, and the metainfo (tools/i18n/pot.ts). Then `make po-update` merges it into
# po/*.po for translators.
po/$(PACKAGE_NAME).pot: all
	node build/pot.mjs --output $@

po-update: po/$(PACKAGE_NAME).pot
	for po in po/*.po; do msgmerge --quiet --update --backup=none --no-wrap --no-fuzzy-matching $$po $<; done

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

# The real-kernel tier: the plugin in Chromium, cockpit-ws on this host, cockpit-bridge and real md
# arrays inside a QEMU guest running a Debian kernel (see test/vm/README.md). KERNEL=6.1 (Debian 12's,
# default), 6.12 (bookworm-backports', RHEL 10's base) or 7 (trixie-backports' newest 7.x, Fedora's
# generation); each has its own build/vm/KERNEL. VM_TESTS: only these test files (jest path patterns;
# default all); VM_SKIP: all but these. Results: test-results/VM_RESULTS.json (default vm[-KERNEL]).
KERNEL ?= 6.1
VM_TESTS ?=
VM_SKIP ?=
VM_RESULTS ?= vm$(if $(filter 6.1,$(KERNEL)),,-$(KERNEL))
check-vm: all
	RAIDTUNE_VM_KERNEL=$(KERNEL) tools/vm/build-guest.sh
	mkdir -p test-results
	RAIDTUNE_VM_KERNEL=$(KERNEL) $(JEST) -c test/vm/jest.config.js --ci --json \
	    --outputFile=test-results/$(VM_RESULTS).json $(VM_TESTS) \
	    $(if $(VM_SKIP),--testPathIgnorePatterns $(VM_SKIP))

# On 6.12 (RHEL 10's base), a smoke set of the real-kernel tier through every kind of kernel read and
# write: the guest, every array state against mdadm, the limit, stripe cache and queue writes with the
# kernel's refusals, a bitmap added and removed, the sync I/O depth, the reboot with the kept files,
# a 4Kn disk in arrays of 512-byte members (6.12 lets a RAID 1 turn 4Kn, 7.x refuses the disk;
# 13 s, its own boot included), and a disk replaced through the page (replaceDisk.test, ~70 s: MBR and
# GPT). Not the replacement's exported script (replaceDiskScript, ~20 s): mdadm and sh do its work,
# and it runs on 6.1 and 7. Jest reads each name as a pattern: "replaceDisk.test" is that file alone.
SMOKE_VM := guest scenarios tuning bitmapKind syncIoDepth keepAfterReboot replaceDisk.test replaceDiskGuest

# Tests that wait minutes of real time for what they show (a sync stalled for 2 minutes; a repair,
# a check and a rebuild run to their end; a check paused and resumed), each on one of 6.1 and 7 in `make check`, to keep it under
# 60 minutes on 2 cores; md's sysfs they use is the same on both, and each passes on the other too.
ONLY_ON_7 := stall checkWindow
ONLY_ON_61 := repairFlow syncHistory
# The reboot with the kept files (2 minutes a kernel) runs on 7 and, in the smoke set, on 6.12, whose
# md interface 6.1 shares (README's kernel table); on 6.1 it passes too, by hand
# (`make check-vm VM_TESTS=keepAfterReboot`).
SKIP_ON_61 := $(ONLY_ON_7) keepAfterReboot
# Kernel 7's files that mostly wait (the 2-minute stall, the reboot's two extra boots): a job of their
# own, in a lane of its own from the start (the waits lane), beside the two busy ones.
WAITS_ON_7 := stall keepAfterReboot

# COCKPIT=287 (the system's, default), 337 or 372 (Python bridge, from Debian's backports, unpacked
# beside the system's by tools/install-cockpit.sh). BROWSER_TESTS: only these test files (jest path
# patterns; default all). Results: test-results/browser[-COCKPIT].json.
# BROWSER_WORKERS: test files run at once, each with its own ws, bridge and Chromium (default 2: the
# files mostly wait on the simulated host and the page, so two in parallel take 60 % of the time of
# one after the other on 2 cores, and leave the machine a third idle).
COCKPIT ?= 287
BROWSER_TESTS ?=
BROWSER_WORKERS ?= 2
# The package is built and checked once, on 287 (package.test.ts, which opens the installed page
# too); the other Cockpits only open the page of that RPM (installed-page.test.ts).
BROWSER_SKIP ?= $(if $(filter 287,$(COCKPIT)),/installed-page\.test,/package\.test)
check-browser: all
	tools/install-cockpit.sh $(COCKPIT)
	mkdir -p test-results
	rm -f test-results/channels-$(COCKPIT).jsonl
	RAIDTUNE_CHANNEL_RECORD=$(CURDIR)/test-results/channels-$(COCKPIT).jsonl \
	RAIDTUNE_COCKPIT=$(COCKPIT) $(JEST) --selectProjects browser --ci --maxWorkers=$(BROWSER_WORKERS) --json \
	    --outputFile=test-results/browser$(if $(filter 287,$(COCKPIT)),,-$(COCKPIT)).json $(BROWSER_TESTS) \
	    --testPathIgnorePatterns '$(BROWSER_SKIP)'

# On 337 (RHEL 9.6/10.0's generation), a smoke set that goes through every read and write path: the
# Cockpit chain, every kind of plan (attributes, mdadm, files, the waiter), limited access, failures.
# On 372 (RHEL 9.8/10.2's and Fedora's generation, the Python bridge), the files that go through what
# differs between bridges: the shell and its address, limited access, each way the page starts
# processes and writes through them and how they fail, conditions, translations, theme, page status,
# a read racing a write, and each host-file defect of issue #31 (alerts, check-schedule, check-window,
# auto-restore, tuning, errors, automation), the overview inside the shell at 1280x720 (issue #33
# asks for it on 287 and 372), and the disk replacement (lsblk and wipefs read with their locale set,
# sfdisk fed its script, commands that fail part way). The rest is the page's own logic, proven on 287 and the same on any bridge:
# the scenarios' rendering, accessibility, layout, diagnosis, estimates, presets, health alerts,
# the sync history. tools/channel-guard.mjs keeps it honest: every kind of channel (and of its
# ending) a test uses on 287 must occur in a test here.
SUBSET_372 := installed-page location page-status smoke limited-access repair-limited-access stalled-sync-limited \
              errors kernel-writes persist /tuning bitmap auto-restore unfinished-plan alerts automation \
              sync-io-depth check-schedule check-window overview i18n theme refresh-after-change dialog-values page-opening \
              replace-disk locate-led

SMOKE_337 := installed-page smoke tuning bitmap persist disk-tuning auto-restore limited-access errors raid1-healthy

# The README's test command: installs what is missing, then every test tier in three lanes at once.
# The run is short of CPU, not of parallelism (doc/testing.md). The main lane (lint and typecheck,
# unit, the browser tiers 287 and 372) prints as it goes; the VM lane (kernels 6.1, 7, the 6.12
# smoke set) and the waits lane (kernel 7's files that mostly wait: a two-minute stall and two
# reboots, 7.4 minutes of wall for 4.5 of CPU) write test-results/lanes/vm.log and waits.log, shown
# when all are done. Two busy lanes and a light one: with three busy jobs at once (gate12: 6.12 in
# the waits lane, beside 287 and 6.1) every job took longer and more CPU (6.12 18.6 minutes and 11
# CPU minutes instead of 10.7 and 8.8), and the run got longer. A lane that is done takes the short
# jobs (337's smoke set, the short benchmark), then a job no lane has started (tools/check-lane.sh);
# the waits lane only the benchmark. A job's guest kernel is locked, so two guests of one kernel
# never run at once. Each job runs in a CPU scheduler group of its own, the kernel jobs weighing
# four times the others (tools/check-lane.sh: out of the kernel's per-session autogroups, where each
# guest and each Chromium had had as large a share as everything else together). Everything the
# lanes install is installed first, one step after another: apt takes one client at a time. A lane
# goes on past a failed job. At the end, each job's start, wall and CPU time (tools/lane-timeline.sh).
# The lanes' jobs share two cores, so a page works several times slower than alone (gate30: a11y.test.ts
# 618 s against 118): every wait of the browser harness and tests grows by this factor there
# (tools/cockpit/waitBudget.ts). A wait bounds an event that must come; it is not a speed test.
CHECK_TIMEOUT_FACTOR ?= 4
check: export RAIDTUNE_TIMEOUT_FACTOR = $(CHECK_TIMEOUT_FACTOR)
MAIN_JOBS := lint unit browser-287 browser-372
VM_JOBS := vm-6.1 vm-7 vm-6.12
WAITS_JOBS := vm-7-waits
# Short jobs a lane takes once its own are done, so that the run ends on short jobs.
TAIL_JOBS := browser-337 bench
check: deps
	$(MAKE) all
	rm -rf test-results
	mkdir -p test-results/lanes
	status=0; \
	$(MAKE) check-installs || status=1; \
	tools/check-lane.sh vm '$(VM_JOBS)' '$(TAIL_JOBS) $(MAIN_JOBS)' > test-results/lanes/vm.log 2>&1 & vm_lane=$$!; \
	tools/check-lane.sh waits '$(WAITS_JOBS)' 'bench' > test-results/lanes/waits.log 2>&1 & waits_lane=$$!; \
	tools/check-lane.sh main '$(MAIN_JOBS)' '$(TAIL_JOBS) $(VM_JOBS)' || status=1; \
	wait $$vm_lane || status=1; \
	wait $$waits_lane || status=1; \
	for lane in vm waits; do echo "==== the $$lane lane's output (test-results/lanes/$$lane.log) ===="; \
	    cat test-results/lanes/$$lane.log; done; \
	if [ -f test-results/channels-372.jsonl ]; then \
	    node tools/channel-guard.mjs test-results/channels-287.jsonl test-results/channels-372.jsonl \
	        test-results/channel-guard.json || status=1; \
	fi; \
	tools/lane-timeline.sh; \
	node tools/test-summary.mjs test-results/*.json || status=1; \
	if [ -s test-results/lanes/failed-steps ]; then cat test-results/lanes/failed-steps; fi; \
	exit $$status

# The durations the tiers order their files by (slowest first, test/order/slowestFirst.js), from
# the last run's results: run after a `make check`, commit test/order/durations.json.
test-durations:
	node tools/test-durations.mjs test-results/*.json

# What the lanes install (the newer Cockpits, the test guests' kernels and host packages), first.
check-installs:
	if command -v apt-get >/dev/null; then tools/install-cockpit.sh 372 && tools/install-cockpit.sh 337; fi
	for k in 6.1 7 6.12; do RAIDTUNE_VM_KERNEL=$$k tools/vm/build-guest.sh || exit 1; done

# The jobs of `make check`'s lanes. Cockpit 337 and 372 come from Debian's backports.
HAVE_BACKPORTS := $(shell command -v apt-get >/dev/null && echo yes)
NO_BACKPORTS := echo "check: Cockpit 337/372 come from Debian's backports: not on this machine, the system's Cockpit only"
check-job-lint:
	$(MAKE) -j2 lint typecheck || { echo "FAILED lint or typecheck (its errors above)" >> test-results/lanes/failed-steps; exit 1; }
check-job-unit: check-unit
check-job-browser-287:
	$(MAKE) check-browser
check-job-browser-372:
	$(if $(HAVE_BACKPORTS),$(MAKE) check-browser COCKPIT=372 BROWSER_TESTS='$(SUBSET_372)',$(NO_BACKPORTS))
check-job-browser-337:
	$(if $(HAVE_BACKPORTS),$(MAKE) check-browser COCKPIT=337 BROWSER_TESTS='$(SMOKE_337)',$(NO_BACKPORTS))
# One guest of a kernel at a time (`flock` on build/vm/KERNEL.lock): they share build/vm/KERNEL.
VM_LOCK = mkdir -p build/vm && flock build/vm/$(1).lock
check-job-vm-6.1:
	$(call VM_LOCK,6.1) $(MAKE) check-vm VM_SKIP='$(SKIP_ON_61)'
check-job-vm-7:
	$(call VM_LOCK,7) $(MAKE) check-vm KERNEL=7 VM_SKIP='$(ONLY_ON_61) $(WAITS_ON_7)'
check-job-vm-7-waits:
	$(call VM_LOCK,7) $(MAKE) check-vm KERNEL=7 VM_TESTS='$(WAITS_ON_7)' VM_RESULTS=vm-7-waits
check-job-vm-6.12:
	$(call VM_LOCK,6.12) $(MAKE) check-vm KERNEL=6.12 VM_TESTS='$(SMOKE_VM)'
check-job-bench:
	$(call VM_LOCK,6.1) $(MAKE) bench-rebuild BENCH_ARGS=--short
.PHONY: $(addprefix check-job-,$(MAIN_JOBS) $(VM_JOBS) $(WAITS_JOBS) $(TAIL_JOBS))

# The README's run command: raidtune in a real Cockpit, against this machine's arrays or a
# simulated host when it has none. Options: make demo DEMO_ARGS="--sim --scenario raid5-reshape",
# or DEMO_ARGS=--vm for real arrays rebuilding in the real-kernel test guest (tools/vm/demo.sh).
demo: deps
	$(MAKE) all
	@case " $(DEMO_ARGS) " in \
	  *" --vm "*) tools/vm/demo.sh $(filter-out --vm,$(DEMO_ARGS)) ;; \
	  *) node build/demo.mjs $(DEMO_ARGS) ;; \
	esac

bench: deps
	$(MAKE) all
	RAIDTUNE_STORAGE_PAGE=$$(tools/install-storage-page.sh) node build/bench.mjs

# Is the page healthy after a day open? The page through a sped-up 22-hour rebuild on the simulated
# host: JS heap, DOM nodes, listeners, timers and channels, their growth into bench/results.json
# (`soak`). SOAK_ARGS=--refreshes 40000 for the whole day (doc/benchmarks.md "Soak benchmark").
soak: deps
	$(MAKE) all
	node_modules/.bin/esbuild tools/soak.ts --bundle --platform=node --format=esm --target=node20 \
	    --packages=external --log-level=warning --outfile=build/soak.mjs
	node build/soak.mjs $(SOAK_ARGS)

# The seeds' rebuild cases on the real kernel (QEMU guest, HDD and NVMe disk models, competing
# reads): kernel defaults, presets, single settings and raidtune's own fix, each against raidtune's
# prediction: bench/rebuild.json, kernels 6.1 and 7 (BENCH_KERNELS=7: that one only). BENCH_ARGS=--short:
# one case (kernel $(KERNEL)), small members, figures in test-results/bench/ (fails only when the benchmark breaks,
# never on a figure); `make check` runs the short form in its VM lane, after the real-kernel tiers.
BENCH_KERNELS ?= $(if $(filter --short,$(BENCH_ARGS)),$(KERNEL),6.1 7)
bench-rebuild: all
	for k in $(BENCH_KERNELS); do RAIDTUNE_VM_KERNEL=$$k tools/vm/build-guest.sh || exit 1; done
	node build/bench-rebuild.mjs --kernels $(shell echo $(BENCH_KERNELS) | tr ' ' ,) $(BENCH_ARGS)

# The seeking disk model (issue #38) measured from inside the guest next to its data-sheet figures:
# bench/seeking-disk.json; fails where a figure reads more than 20% off (not a test). Guest: KERNEL.
bench-disk: all
	RAIDTUNE_VM_KERNEL=$(KERNEL) tools/vm/build-guest.sh
	node build/bench-disk.mjs --kernels $(KERNEL)

# Rebuild ETA on the real kernel (not a test): whole rebuilds under a changing load, raidtune's estimate
# and the kernel's finish= against the real finish: bench/eta.json and bench/eta.svg, kernels 6.1 and 7.
# BENCH_ARGS=--short: one short run (kernel $(KERNEL)), figures in test-results/bench/.
bench-eta: all
	for k in $(BENCH_KERNELS); do RAIDTUNE_VM_KERNEL=$$k tools/vm/build-guest.sh || exit 1; done
	node build/bench-eta.mjs --kernels $(shell echo $(BENCH_KERNELS) | tr ' ' ,) $(BENCH_ARGS)

# The recorded samples of bench/eta.json through other averaging windows (reads the file only).
bench-eta-replay: all
	node build/eta-replay.mjs

# Release tarball: the files git tracks or would track (not ignored), the built dist/ and the
# spec; reproducible (tools/dist-tarball.sh): two runs give the same bytes.
dist: $(TARBALL)

$(TARBALL): all $(SPEC)
	@if ls dist/*.map >/dev/null 2>&1; then echo "dist/ is a development build (make watch): run make clean all" >&2; exit 1; fi
	tools/dist-tarball.sh $@ $(PACKAGE_NAME)-$(VERSION) $(SOURCE_DATE_EPOCH) dist $(SPEC)

$(SPEC): $(SPEC).in package.json dist/index.js build/bundled-provides.txt
	sed -e 's/@VERSION@/$(VERSION)/' -e '/@BUNDLED_PROVIDES@/{r build/bundled-provides.txt' -e 'd}' $< > $@

srpm: $(TARBALL) $(SPEC)
	mkdir -p rpmbuild/SOURCES
	cp $(TARBALL) rpmbuild/SOURCES/
	$(RPMBUILD) -bs $(SPEC)

# The binary RPM, rebuilt from the source RPM (so the SRPM is proven complete):
# rpmbuild/RPMS/noarch/cockpit-raidtune-VERSION-1*.noarch.rpm
rpm: srpm
	$(RPMBUILD) --rebuild rpmbuild/SRPMS/cockpit-$(PACKAGE_NAME)-$(VERSION)-1*.src.rpm

# The screenshots of the README and doc/user-guide.md, from the last browser test run (small PNGs, committed).
screenshots:
	mkdir -p doc/screenshots
	for name in raidtune-light raidtune-dark overview-slow-rebuilds-1280x720 overview-raid6-recovery-1280x720 check-window-dialog \
	    check-window-card narrow-768-slow-rebuilds array-actions-menu; do \
	  test -f test-results/screenshots/$$name.png || { echo "run the browser tests first (make check-browser)" >&2; exit 1; }; \
	  cp test-results/screenshots/$$name.png doc/screenshots/$$name.png; \
	done

clean:
	rm -rf dist build test-results rpmbuild $(SPEC) $(PACKAGE_NAME)-*.tar.xz
