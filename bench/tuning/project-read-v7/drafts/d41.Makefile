DENO ?= deno
PERMS = --allow-net --allow-env=EDGEWISE_TOKEN,EDGEWISE_PROVIDER,HOME --allow-read
TARGETS = x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu aarch64-apple-darwin x86_64-apple-darwin

.PHONY: all fmt lint check test compile publish clean

all: fmt lint check test

fmt:
	$(DENO) fmt

lint:
	$(DENO) lint

check:
	$(DENO) check cli/main.ts src/mod.ts

test:
	$(DENO) test $(PERMS) --parallel

compile: $(addprefix dist/edgewise-,$(TARGETS))

dist/edgewise-%:
	$(DENO) compile $(PERMS) --target $* -o $@ cli/main.ts

# quick way to get a fix out without waiting for the CI queue
publish: check test
	$(DENO) publish --allow-dirty

clean:
	rm -rf dist coverage
