# libmvvm: `make demo` runs the demo, `make test` runs every test (README.md).
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the project needs; installed by `make deps` when missing (root, as on CI).
# libglib2.0-dev and python3-gi: the GObject twins of `make bench` (C and PyGObject).
# libsqlite3-dev: the todo app's storage (GRDB builds against it; its C tests read the database).
# libgtk-4-dev, libjson-glib-dev, gobject-introspection, libgirepository1.0-dev, gir1.2-gtk-4.0 and
# python3-pytest, gjs: the GLib bridge, its typelib and the GTK apps in C and Python (`make gtk`),
# the typelib from GJS.
# nodejs (Node 20, with its Node-API headers, is on the machine: NodeSource's package of that name)
# and node-typescript: the Node binding (bindings/node), its declarations checked by `tsc --strict`.
# chromium, chromium-driver: the web example's browser tests (`make test-web`, Selenium from PyPI).
# libcurl4-openssl-dev: a static release build of a package over MVVMCombine links Foundation's
# networking (OpenCombineFoundation's URLSession publisher), which needs libcurl (Tests/packages).
SYSTEM_PACKAGES := libffi-dev libcurl4-openssl-dev valgrind python3-venv python3-tk xvfb ruby luajit pkgconf libglib2.0-dev python3-gi libsqlite3-dev \
	libgtk-4-dev libjson-glib-dev gobject-introspection libgirepository1.0-dev gir1.2-gtk-4.0 python3-pytest gjs nodejs node-typescript \
	chromium chromium-driver
# The catalog (examples/catalog: the seeds' designs, a package over the export API as any user's
# is): build/catalog/libcatalog.so is the demo's library and the one most tests load; its typed
# Python package, examples/catalog/python/catalog (`import catalog`, generated), loads it through
# a link beside it that `make catalog` makes.
CATALOG_DIR := $(CURDIR)/build/catalog
CATALOG := $(CATALOG_DIR)/libcatalog.so
CATALOG_PYTHON := examples/catalog/python
# Only mvvm_* leaves a library we build (bindings/c/common.sh says why this is not in Package.swift).
EXPORTS := -Xlinker --version-script=$(CURDIR)/Sources/MVVMExport/exports.map
# The catalog, the todo app, the search screen and Tests/derive build into the root's .build, which
# compiles libmvvm and OpenCombine once for all (bindings/c/common.sh, MVVM_DEV_SCRATCH_FLAGS).
DEV_SCRATCH := --scratch-path $(CURDIR)/.build
# Where those builds' libraries are (the catalog's, the todo app's, the search screen's).
DEV_BIN := .build/debug

.PHONY: all deps build build-dir catalog generate check test test-swift sample test-generated test-outside test-header test-c test-c-valgrind test-harness test-views \
	test-python test-tk test-ruby test-lua test-derive demo search clean test-sanitize test-sanitize-address test-sanitize-thread \
	test-docs test-fuzz-seeds test-soak fuzz todo test-todo gtk test-gtk test-packages node node-package test-node test-node-package test-web test-agree catalog

all: build

deps:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

# The catalog's library -> build/catalog/libcatalog.so (copied only when it changed, by a rename:
# a process that loaded the old one keeps its copy).
catalog: deps build-dir
	cd examples/catalog && $(SWIFT) build $(DEV_SCRATCH) $(EXPORTS)
	@mkdir -p build/catalog && $(call replace_if_changed,$(DEV_BIN)/libcatalog.so,$(CATALOG))
	@ln -sfn ../../../../build/catalog/libcatalog.so $(CATALOG_PYTHON)/catalog/libcatalog.so

# The engine's and the runtime's Swift tests, then the catalog's (its models and view models).
test-swift: deps
	$(SWIFT) test $(EXPORTS)
	cd examples/catalog && $(SWIFT) test $(DEV_SCRATCH) $(EXPORTS)

# Every typed surface is generated (`python3 -m mvvm_gen`, tools/mvvm_gen, which the mvvm
# wheel ships; it imports no binding and runs no Ruby), and `make test` fails when one is stale.
# From the fixed header (include/mvvm.h) and the naming rule's data (tools/mvvm_gen/naming.json):
# the ABI modules of the Python and Ruby bindings, the status names' tables of the library and of
# the C tests, the registration check's table of the naming rule, the export API's methods of each
# arity, and the Merge publishers of each arity (Sources/MVVMRuntime/Operators).
MVVM_GEN := PYTHONPATH=$(CURDIR)/tools python3 -m mvvm_gen
ENGINE_GENERATED := --py-abi bindings/python/mvvm/_abi.py --rb-abi bindings/ruby/lib/mvvm/abi.rb \
	--arities Sources/MVVMExport/Generated/Arities.swift --naming Sources/MVVMExport/Generated/Naming.swift \
	--status-swift Sources/MVVMExport/Generated/StatusNames.swift --status-c Tests/C/status_names.h \
	--merges Sources/MVVMRuntime/Operators
# From the catalog's library, as any package's (its classes are declared in these three modules):
# its typed C calls (a header, and their definitions in its own target), its typed Python package
# (examples/catalog/python/catalog), Ruby signatures and TypeScript declarations of the classes
# the bindings make of it, and the fuzzer's tables.
CATALOG_GENERATED := --library $(CATALOG) --module MVVMCatalog --module MVVMViewModels --module MVVMModels \
	--header examples/catalog/include/mvvm_catalog.h --swift examples/catalog/Sources/MVVMCatalog/TypedCalls.generated.swift \
	--py-package examples/catalog/python/catalog --rbs examples/catalog/sig/catalog.rbs \
	--dts examples/catalog/mvvm_catalog.d.ts --fuzz Tests/fuzz/typed_calls.h

generate: catalog
	$(MVVM_GEN) $(ENGINE_GENERATED)
	$(MVVM_GEN) $(CATALOG_GENERATED)

test-generated: catalog
	@$(MVVM_GEN) $(ENGINE_GENERATED) --check && $(MVVM_GEN) $(CATALOG_GENERATED) --check \
	  && echo "generated: 1 passed, 0 failed" || { echo "generated: 0 passed, 1 failed"; exit 1; }

# The fixed header (mvvm.h) and the catalog's (mvvm_catalog.h) each compile alone, as C and C++;
# together they declare every symbol libmvvm.so exports.
test-header: catalog
	bash Tests/C/check_header.sh $(DEV_BIN) $(CATALOG)

test-c: catalog
	bash Tests/C/run_c_tests.sh $(CATALOG_DIR)

# Every file, folder, Swift target and make target the docs cite exists (Tests/docs/run.sh).
test-docs:
	bash Tests/docs/run.sh

# The C tests under valgrind (memory errors and definite leaks fail), with a fair scheduler.
test-c-valgrind: catalog
	C_TESTS_OUTDIR=build/c-tests-valgrind bash Tests/C/run_c_tests.sh $(CATALOG_DIR) --valgrind

# The harness itself: a hung test is killed and reported within its limit, natively and under
# valgrind; a hung suite is killed and the suites after it still run.
test-harness: catalog
	bash Tests/check_harness.sh $(CATALOG_DIR)

# A package outside this one exports its own view models (Tests/outside: libsample.so); C,
# Python, Ruby and LuaJIT drive them, the last three from their own suites.
SAMPLE_LIB = Tests/outside/.build/debug/libsample.so
# Its view models written as apps write them (a @MainActor class, Foundation Timer...).
APP_SAMPLE_LIB = Tests/outside/.build/debug/libappsample.so

sample: catalog
	cd Tests/outside && $(SWIFT) build $(EXPORTS)

test-outside: sample build-dir
	bash Tests/outside/run.sh

test-python: catalog sample todo build-dir
	MVVM_SAMPLE_LIBRARY=$(CURDIR)/$(SAMPLE_LIB) MVVM_APP_SAMPLE_LIBRARY=$(CURDIR)/$(APP_SAMPLE_LIB) \
	  MVVM_TODO_LIBRARY=$(CURDIR)/build/todo/libtodo.so bash bindings/python/run_tests.sh $(CATALOG_DIR)

# The Tk app under a private Xvfb, driven through its widgets; screenshots in build/screenshots/.
# Its screens are the catalog's (libmvvm.so) and its Todos tab the todo app's (build/todo/libtodo.so,
# loaded beside it, on a loop of its own). Its main loop's test uses Tests/outside's
# libappsample.so (a @MainActor view model).
test-tk: catalog todo sample build-dir
	MVVM_TODO_LIBRARY=$(CURDIR)/build/todo/libtodo.so MVVM_APP_SAMPLE_LIBRARY=$(CURDIR)/$(APP_SAMPLE_LIB) \
	  bash examples/python/run_tk_tests.sh $(CATALOG_DIR)

test-ruby: catalog sample build-dir
	MVVM_SAMPLE_LIBRARY=$(CURDIR)/$(SAMPLE_LIB) bash bindings/ruby/run_tests.sh $(CATALOG_DIR)

test-lua: catalog build-dir
	bash bindings/lua/run_tests.sh $(CATALOG_DIR)

# The todo app (examples/todo: its own package over the export API) -> build/todo/libtodo.so.
# $(call replace_if_changed,FROM,TO): a library copied into build/ only when it changed, and by
# a rename, so that a process that loaded the old one keeps its copy.
replace_if_changed = cmp -s $(1) $(2) || { cp $(1) $(2).new && mv -f $(2).new $(2); }

todo: deps build-dir
	cd examples/todo && $(SWIFT) build $(DEV_SCRATCH) $(EXPORTS)
	@mkdir -p build/todo && $(call replace_if_changed,$(DEV_BIN)/libtodo.so,build/todo/libtodo.so)
	@echo "build/todo/libtodo.so"

# The search screen (examples/search: an async search, records, a throwing command) ->
# build/search/libsearch.so, and its C view build/search/search_view.
search: deps build-dir
	cd examples/search && $(SWIFT) build $(DEV_SCRATCH) $(EXPORTS)
	@mkdir -p build/search && $(call replace_if_changed,$(DEV_BIN)/libsearch.so,build/search/libsearch.so)
	@cc -std=c11 -Wall -Wextra -Werror -pedantic examples/search/search_view.c -Iinclude -Lbuild/search -lsearch \
	  -Wl,-rpath,$(CURDIR)/build/search -o build/search/search_view

# The todo app's tests: the view models' Swift tests (swift test in examples/todo), then the C tests
# (TodoMVC's behaviours, splices, the SQLite storage and its failures, SIGKILL during changes),
# natively and under valgrind.
test-todo: todo
	bash examples/todo/run_tests.sh

test-views: catalog search
	bash examples/test_views.sh $(CATALOG_DIR)

# Registrations derived from the code (`python3 -m mvvm_gen derive`, docs/packages.md): the derived
# files of Tests/derive, the todo app, the search screen and the catalog are current (--check, on the
# builds `make todo search catalog` made, with their flags: nothing is relinked), a stale one is told;
# Tests/derive's view models registered by derivation (libderived.so) and by hand (libhand.so) are
# described alike and behave alike, from C and Python (Tests/derive/run.sh).
test-derive: todo search catalog build-dir
	bash Tests/derive/run.sh

# The GLib bridge (bindings/glib: libmvvm-glib.so, over include/mvvm.h only, and its
# GObject-Introspection typelib MvvmGlib-1.0) and TodoMVC in GTK 4 (examples/gtk: the C app
# build/gtk/todo-gtk; examples/gtk/todo_gtk.py with PyGObject) -> build/gtk/. Each file is rebuilt
# only when its sources change.
GTK_OUT := build/gtk
GTK_CC = cc -std=c11 -Wall -Wextra -Werror -Iinclude -Ibindings/glib
GLIB_BRIDGE := $(GTK_OUT)/libmvvm-glib.so
# Its sources, a file per type or concern (docs/glib-bridge.md); mvvm-glib-private.h is what they
# share, mvvm-glib.h the API (the one header given to g-ir-scanner).
GLIB_BRIDGE_C := bindings/glib/mvvm-glib-library.c bindings/glib/mvvm-glib-value.c bindings/glib/mvvm-glib-loop.c \
	bindings/glib/mvvm-glib-object.c bindings/glib/mvvm-glib-command.c bindings/glib/mvvm-glib-list.c \
	bindings/glib/mvvm-glib-service.c
GLIB_BRIDGE_SOURCES := $(GLIB_BRIDGE_C) bindings/glib/mvvm-glib-private.h bindings/glib/mvvm-glib.h include/mvvm.h
TODO_GTK_SOURCES := examples/gtk/todo_window.c examples/gtk/todo_window.h
GTK_PROGRAMS := $(GTK_OUT)/MvvmGlib-1.0.typelib $(GTK_OUT)/todo-gtk $(GTK_OUT)/test_mvvm_glib $(GTK_OUT)/test_todo_gtk

gtk: deps build-dir
	@$(MAKE) --no-print-directory $(GTK_PROGRAMS)

$(GLIB_BRIDGE): $(GLIB_BRIDGE_SOURCES)
	@mkdir -p $(GTK_OUT)
	$(GTK_CC) -fPIC -shared $(GLIB_BRIDGE_C) -o $@ $$(pkg-config --cflags --libs gio-2.0 json-glib-1.0) -ldl

$(GTK_OUT)/MvvmGlib-1.0.gir: $(GLIB_BRIDGE)
	g-ir-scanner --quiet --warn-all --warn-error --namespace=MvvmGlib --nsversion=1.0 --identifier-prefix=MvvmGlib \
	  --symbol-prefix=mvvm_glib --include=GObject-2.0 --include=Gio-2.0 --library=mvvm-glib --library-path=$(GTK_OUT) \
	  -Iinclude -Ibindings/glib $$(pkg-config --cflags gio-2.0) --c-include=mvvm-glib.h \
	  bindings/glib/mvvm-glib.h $(GLIB_BRIDGE_C) --output $@

# The typelib names the library by its absolute path: PyGObject and GJS need only GI_TYPELIB_PATH.
$(GTK_OUT)/MvvmGlib-1.0.typelib: $(GTK_OUT)/MvvmGlib-1.0.gir
	g-ir-compiler --shared-library=$(CURDIR)/$(GLIB_BRIDGE) $< -o $@

$(GTK_OUT)/todo-gtk: examples/gtk/todo_gtk.c $(TODO_GTK_SOURCES) $(GLIB_BRIDGE)
	$(GTK_CC) examples/gtk/todo_gtk.c examples/gtk/todo_window.c -o $@ $$(pkg-config --cflags --libs gtk4) \
	  -L$(GTK_OUT) -lmvvm-glib -Wl,-rpath,$(CURDIR)/$(GTK_OUT)

$(GTK_OUT)/test_mvvm_glib: bindings/glib/test_mvvm_glib.c $(GLIB_BRIDGE)
	$(GTK_CC) $< -o $@ $$(pkg-config --cflags --libs gio-2.0) -L$(GTK_OUT) -lmvvm-glib -Wl,-rpath,$(CURDIR)/$(GTK_OUT) -ldl

$(GTK_OUT)/test_todo_gtk: examples/gtk/test_todo_gtk.c $(TODO_GTK_SOURCES) $(GLIB_BRIDGE)
	$(GTK_CC) examples/gtk/test_todo_gtk.c examples/gtk/todo_window.c -o $@ $$(pkg-config --cflags --libs gtk4) \
	  -L$(GTK_OUT) -lmvvm-glib -Wl,-rpath,$(CURDIR)/$(GTK_OUT) -ldl

# The bridge's tests (C, natively and under valgrind; GJS), TodoMVC in GTK from C (natively and
# under valgrind) and from Python, under a private Xvfb with GSK_RENDERER=cairo; screenshots in
# build/screenshots/gtk_*.png.
test-gtk: catalog gtk todo sample search node build-dir
	MVVM_CATALOG_LIBRARY=$(CATALOG) MVVM_TODO_LIBRARY=$(CURDIR)/build/todo/libtodo.so MVVM_SAMPLE_LIBRARY=$(CURDIR)/$(SAMPLE_LIB) \
	  MVVM_SEARCH_LIBRARY=$(CURDIR)/build/search/libsearch.so MVVM_APP_SAMPLE_LIBRARY=$(CURDIR)/$(APP_SAMPLE_LIB) \
	  bash examples/gtk/run_tests.sh

# Every binding (Python, Ruby, LuaJIT, the GLib bridge from GJS, Node.js) shows the names and UInt64
# values the description gives, on the catalog and on Tests/outside's libsample.so.
test-agree: catalog gtk sample node build-dir
	python3 Tests/bindings/agree.py $(CATALOG) $(CURDIR)/$(SAMPLE_LIB)

# The Node.js binding (bindings/node): a Node-API addon in C over include/mvvm.h alone, built with
# the machine's Node headers (Node-API 9) -> build/node/mvvm.node; the JavaScript module around it
# (bindings/node/index.js) makes a library's classes at run time from its description.
NODE_INCLUDE ?= $(firstword $(wildcard /usr/include/node /usr/local/include/node))
NODE_ADDON := build/node/mvvm.node

node: build-dir
	@$(MAKE) --no-print-directory $(NODE_ADDON)

$(NODE_ADDON): bindings/node/mvvm_node.c include/mvvm.h
	@[ -f "$(NODE_INCLUDE)/node_api.h" ] || { echo "no node_api.h in NODE_INCLUDE=$(NODE_INCLUDE): install Node.js 20 with its headers, or set NODE_INCLUDE"; exit 1; }
	@mkdir -p build/node
	cc -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -DNAPI_VERSION=9 \
	  -I$(NODE_INCLUDE) -Iinclude bindings/node/mvvm_node.c -o $@ -ldl -lpthread

# The npm package (bindings/node/package.sh, `npm pack`): the prebuilt addon, the modules and their
# declarations -> build/node/mvvm-VERSION.tgz, installed with `npm install` and no Swift.
NODE_PACKAGE_VERSION = $(shell sed -n 's/^  "version": "\(.*\)",$$/\1/p' bindings/node/package.json)
NODE_PACKAGE := build/node/mvvm-$(NODE_PACKAGE_VERSION).tgz

node-package: node
	@bash bindings/node/package.sh build/node $(NODE_ADDON)

# The package as a user meets it (bindings/node/test_package.sh): packed, installed offline into an
# empty folder, a greeter program run from .mjs and .cjs with no Swift on PATH, an ES module
# TypeScript program checked by tsc --strict against the installed types.
test-node-package: catalog sample node-package
	MVVM_SAMPLE_LIBRARY=$(CURDIR)/$(SAMPLE_LIB) bash bindings/node/test_package.sh $(CURDIR)/$(NODE_PACKAGE)

# Its tests (node --test): the catalog, Tests/outside's libsample.so and libappsample.so (the main
# loop), the todo app, the TypeScript declarations (tsc --strict).
test-node: catalog sample todo node
	MVVM_CATALOG_LIBRARY=$(CATALOG) MVVM_SAMPLE_LIBRARY=$(CURDIR)/$(SAMPLE_LIB) MVVM_APP_SAMPLE_LIBRARY=$(CURDIR)/$(APP_SAMPLE_LIB) \
	  MVVM_TODO_LIBRARY=$(CURDIR)/build/todo/libtodo.so bash bindings/node/run_tests.sh

# TodoMVC in a browser (examples/web: a node:http server over the todo app's view models) in
# headless Chromium driven by Selenium; screenshots in build/screenshots/web_*.png.
test-web: catalog todo node-package build-dir
	MVVM_TODO_LIBRARY=$(CURDIR)/build/todo/libtodo.so bash examples/web/run_tests.sh $(CURDIR)/$(NODE_PACKAGE)

# --- Reliability (RELIABILITY.md): sanitizers, the fuzzer's seeds, the soak; `make fuzz` fuzzes.
FUZZ_SECONDS ?= 300

# The Swift and C tests under AddressSanitizer (+ LeakSanitizer), then ThreadSanitizer; scratch
# builds in .build-asan and .build-tsan, which examples/catalog shares with the root.
test-sanitize: test-sanitize-address test-sanitize-thread

test-sanitize-address: deps build-dir
	bash Tests/sanitize.sh address

test-sanitize-thread: deps build-dir
	bash Tests/sanitize.sh thread

# Every committed fuzzer input replayed once, by each of the three fuzzers (Tests/fuzz/build.sh:
# fuzz_abi on the catalog's libcatalog.so, fuzz_sample on Tests/outside's libsample.so, fuzz_todo on the todo app's
# libtodo.so; their inputs in Tests/fuzz/corpus, corpus-sample, corpus-todo: seeds and past findings).
test-fuzz-seeds: deps build-dir
	bash Tests/fuzz/run.sh 0

# SOAK_CYCLES create/subscribe/notify/release cycles with flat memory; an hour of stopwatch ticks.
# 300,000 in `make test`; more by hand:
# make test-soak SOAK_CYCLES=10000000.
SOAK_CYCLES ?= 300000
test-soak: catalog build-dir
	bash Tests/soak.sh $(CATALOG_DIR) $(SOAK_CYCLES)

# Coverage-guided fuzzing of the C ABI for FUZZ_SECONDS in all, split evenly over FUZZ_TARGETS
# (abi sample todo by default); findings in build/fuzz-artifacts/.
FUZZ_TARGETS ?=
fuzz: deps build-dir
	bash Tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Every suite, each under a time limit in seconds that SIGKILL enforces; a failing suite does not
# stop the others; the closing lines name the failed suites and sum every suite's tests.
# SUITES_BESIDE run at the same time as SUITES: each builds into scratch folders of its own or
# only reads what `test` built before both start (the library, the todo app, the GLib bridge, the
# sample package), which no suite rebuilds differently; the todo suite's Swift tests build in the
# root's .build, as the swift and derive suites do, one after the other (SwiftPM's lock).
SUITES := docs:120 swift:1200 generated:300 header:300 agree:300 c:900 harness:600 outside:1200 views:300 derive:600 python:900 tk:600 ruby:600 \
	lua:300 node:600 node-package:300 web:600 gtk:900 packages:1500 soak:900
SUITES_BESIDE := c-valgrind:1800 sanitize-address:2400 todo:900 fuzz-seeds:1200 packaging:1500 sanitize-thread:2400

# The inner loop (docs/testing.md): the generated files' and docs' checks, the Swift tests, the C
# tests and the Python suite's fast-path pass without its slow modules, stopping at the first
# failure; under 3 minutes on a warm tree.
check: catalog sample todo build-dir
	@bash Tests/check.sh

test: catalog todo gtk sample search node build-dir
	@bash Tests/run_suites.sh --beside "$(SUITES_BESIDE)" $(SUITES)

build-dir:
	@mkdir -p build

# --- Packaging (tested by Tests/packaging): a package's release library that needs no Swift
# (bindings/c/build_release.sh: the catalog's by default), `make install` (bindings/c: the header,
# pkg-config, the generator; no library), the mvvm wheel (bindings/python/packaging: the binding,
# the generator, the C extension; no library), the catalog's typed wheel (mvvm_gen.package).
PREFIX ?= /usr/local
DESTDIR ?=
RELEASE_LIB := build/release-static/libcatalog.so

.PHONY: release release-shared install wheel catalog-wheel test-packaging bench bench-main-loop

# build/release-static/libcatalog.so (soname libcatalog.so.MAJOR): the catalog's library with the
# Swift runtime linked in, for C, Python, hosts without Swift.
release: deps
	bash bindings/c/build_release.sh static build/release-static

# build/release-shared/libcatalog.so: the toolchain's shared Swift runtime, for hosts that load Swift.
release-shared: deps
	bash bindings/c/build_release.sh shared build/release-shared

# PREFIX/include/mvvm.h, PREFIX/lib/pkgconfig/mvvm.pc, PREFIX/bin/mvvm-gen and the generator in
# PREFIX/share/libmvvm: what a C developer building a host needs (docs/install.md says where an
# app's own library and its generated header go). Builds nothing.
install:
	DESTDIR="$(DESTDIR)" bash bindings/c/install.sh "$(PREFIX)"

# build/wheel/mvvm-VERSION-cp310-abi3-manylinux_2_N_x86_64.whl: the binding, the generator and the
# C extension (bindings/python/packaging/build_wheel.sh; bindings/python/README.md, "Install").
wheel: build-dir
	bash bindings/python/packaging/build_wheel.sh build/wheel

# build/wheel/catalog-VERSION-py3-none-manylinux_2_N_x86_64.whl and build/wheel/catalog-c/: the
# catalog shipped as any package of one's own is (python3 -m mvvm_gen.package), from the release
# library `make release` builds.
catalog-wheel: release
	$(MVVM_GEN) package --library $(RELEASE_LIB) --name catalog --version $$(sed -n 's/^version = "\(.*\)"$$/\1/p' bindings/python/pyproject.toml) \
	  --module MVVMCatalog,MVVMViewModels,MVVMModels --out build/wheel

# Packages as users write them: the code of README.md, docs/packages.md and docs/glib-bridge.md built and run as written,
# a package depending on libmvvm by version, packages composed into one library (Tests/packages).
test-packages: catalog todo gtk build-dir
	bash Tests/packages/run.sh

test-packaging: deps node build-dir
	bash Tests/packaging/test_packaging.sh

# Release builds and the benchmarks' table (BENCHMARKS.md); not part of `make test`.
bench: deps build-dir
	bash Tests/bench/run.sh

# How late the main loop delivers an app's work (a Foundation Timer, a private queue's completion,
# main-queue work) to a host that only polls its fd: a measurement in real time, not a test
# (Tests/bench/main_loop_latency.c; figures in docs/loops-and-threads.md). Not part of `make test`.
bench-main-loop: sample build-dir
	cc -std=c11 -O1 -Wall -Wextra -Werror Tests/bench/main_loop_latency.c -Iinclude -L$(dir $(APP_SAMPLE_LIB)) -lappsample \
	  -Wl,-rpath,$(CURDIR)/$(dir $(APP_SAMPLE_LIB)) -o build/main_loop_latency
	./build/main_loop_latency

# The C view and the Python view over the same catalog, each a scripted session on a virtual loop.
demo: catalog build-dir todo search
	@cc -std=c11 examples/c/mvvm_view.c -Iinclude -L$(CATALOG_DIR) -lcatalog -Wl,-rpath,$(CATALOG_DIR) -o build/mvvm_view
	@echo "== The C terminal view (examples/c/mvvm_view.c) running examples/c/demo.script =="
	@./build/mvvm_view --script examples/c/demo.script
	@echo
	@cc -std=c11 examples/c/mvvm_view.c -Iinclude -L$(CURDIR)/build/todo -ltodo -Wl,-rpath,$(CURDIR)/build/todo -o build/todo/mvvm_view
	@echo "== The same view on the todo app (build/todo/libtodo.so) running examples/c/todo.script =="
	@./build/todo/mvvm_view --script examples/c/todo.script
	@echo
	@echo "== The search screen's C view (examples/search/search_view.c: an async search, records) =="
	@./build/search/search_view
	@echo
	@echo "== The Python console view (examples/python/console_view.py) =="
	@PYTHONPATH=bindings/python python3 examples/python/console_view.py $(CATALOG)
	@echo
	@echo "(Interactive: ./build/mvvm_view, or ./build/todo/mvvm_view with t for todos; the Swift view models without C: swift run mvvm-swift-demo)"

# Every package's build folders: the root's, the examples' and Tests/outside's (release, sanitizer
# and fuzzer builds included).
clean:
	rm -rf .build .build-* build examples/*/.build examples/*/.build-* Tests/outside/.build Tests/outside/.build-* Tests/derive/.build
