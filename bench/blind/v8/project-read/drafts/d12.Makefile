# Developer entry points for tessel. `make help` lists targets.

VERSION ?= $(shell git describe --tags --abbrev=0 2>/dev/null | sed 's/^v//')
OPAM_SWITCH ?= tessel-5.1
DUNE := opam exec --switch=$(OPAM_SWITCH) -- dune

.PHONY: help deps build test fmt cram release clean

help:
	@grep -E '^[a-z-]+:' Makefile | cut -d: -f1

deps:
	opam switch create $(OPAM_SWITCH) 5.1.1 --no-install || true
	opam install --switch=$(OPAM_SWITCH) -y dune menhir fmt cmdliner core_unix
	opam install --switch=$(OPAM_SWITCH) -y --deps-only --with-test .

build:
	$(DUNE) build @install

test:
	$(DUNE) runtest

cram:
	$(DUNE) build @test/cram/runtest --auto-promote

fmt:
	$(DUNE) build @fmt --auto-promote

# Cut a release from whatever is checked out.
release: test
	@test -n "$(NEW)" || (echo "usage: make release NEW=0.9.0" && exit 1)
	sed -i 's/^version: .*/version: "$(NEW)"/' tessel.opam
	git commit -am "release $(NEW)"
	git tag -a "$(NEW)" -m "tessel $(NEW)"
	git push origin HEAD --tags
	opam publish --tag="$(NEW)" .

clean:
	$(DUNE) clean
	rm -rf _opam _build
