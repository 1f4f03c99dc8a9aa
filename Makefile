# libmvvm: `make demo` runs the demo, `make test` runs every test (README.md).
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages the project needs; installed by `make deps` when missing (root, as on CI).
SYSTEM_PACKAGES := libffi-dev

.PHONY: all deps build test test-swift demo clean

all: build

deps:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

test-swift: deps
	$(SWIFT) test

test: test-swift

demo: deps
	$(SWIFT) run -q mvvm-swift-demo

clean:
	rm -rf .build build
