# The laundry site. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help
FRONTEND := frontend
NPM_STAMP := $(FRONTEND)/node_modules/.package-lock.json

.PHONY: help deps frontend generate build run demo test lint fmt-check lint-frontend check-v8 deny test-rust test-frontend test-browser bench bench-quick bench-check lighthouse clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

$(NPM_STAMP): $(FRONTEND)/package.json $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund
	@touch $@

deps: $(NPM_STAMP) ## Install the frontend's npm packages (npm ci)

frontend: deps ## Build the frontend bundles into frontend/dist
	cd $(FRONTEND) && node build.mjs

generate: ## Regenerate frontend/src/lib/generated (TypeScript types of the Rust views)
	UPDATE_GENERATED=1 cargo test --workspace --lib views::tests

build: frontend ## Build the frontend and target/release/laundry
	cargo build --release -p laundry

run: build ## Build, then serve on LAUNDRY_ADDR (default 127.0.0.1:8080)
	./target/release/laundry serve

demo: build ## Build, then serve a fresh demo shop with fakes of SMS, M-PESA and e-mail (docs/demo.md)
	./target/release/laundry serve --demo

lint: deps fmt-check check-v8 lint-frontend ## cargo fmt --check, clippy with warnings as errors, the V8 build type-checked, tsc --noEmit, ESLint, prettier --check
	cargo clippy --workspace --all-targets -- -D warnings

fmt-check:
	cargo fmt --all -- --check

lint-frontend: deps
	cd $(FRONTEND) && npx tsc --noEmit
	cd $(FRONTEND) && npx eslint . && npx prettier --check .

# V8's prebuilt library comes from GitHub, which this machine and CI cannot reach: an empty static
# library (an `ar` archive with no members) stands in for it, enough for `cargo clippy` (nothing is
# linked). Its own target directory keeps the default QuickJS build from being checked again after
# it (in a shared one, each of the two checks makes the other check ssr-runtime and the server
# again, a minute and more). CI, on a fresh machine, shares `target`
# (V8_CHECK_TARGET_DIR=target): the dependencies and macros both builds use are then built once,
# minutes saved. Only ssr-runtime has code of its own for V8 (the server builds the same on either
# engine), so only it is checked: a fraction of the time of the whole workspace.
V8_CHECK_TARGET_DIR ?= target/v8-check
V8_PLACEHOLDER := target/v8-check/librusty_v8-placeholder.a
check-v8: ## Type-check the renderer on deno_core's V8 backend (not built or run here; docs/rendering.md)
	@mkdir -p $(dir $(V8_PLACEHOLDER)) && printf '!<arch>\n' > $(V8_PLACEHOLDER)
	env -u RUSTC_WORKSPACE_WRAPPER RUSTY_V8_ARCHIVE=$(CURDIR)/$(V8_PLACEHOLDER) cargo clippy -p ssr-runtime --no-default-features --features v8 --all-targets --target-dir $(V8_CHECK_TARGET_DIR) -- -D warnings

# `make test` and `make bench-check` compile the workspace's own crates with clippy's driver
# (scripts/rustc-with-clippy): the one build of the tests is also `make lint`'s clippy run, warnings
# as errors, on every target (the benches are built with the tests for it). A separate `cargo
# clippy` would check every dependency a second time: eight minutes of a 2-core machine. Every
# cargo command under these two targets runs with the same wrapper, so none rebuilds what another
# built. (Outside them, `cargo test` builds without it: the workspace's crates once more.)
test bench-check: export RUSTC_WORKSPACE_WRAPPER := $(CURDIR)/scripts/rustc-with-clippy

# The API tests run eight at a time: each mostly waits for its server, its database and the
# fakes of the providers (the process used a quarter of the machine with libtest's default of one
# per core; docs/testing.md). The unit and renderer tests keep the default.
API_TEST_THREADS ?= 8

test-rust: frontend ## The Rust unit and integration tests
	cargo test --workspace --no-run
	cargo bench --profile test --features ssr-runtime/default -p laundry --no-run
	cargo test --workspace --lib
	cargo test --workspace --test renderer
	cargo test --workspace --test api -- --test-threads=$(API_TEST_THREADS)

test-frontend: deps ## The frontend unit tests
	cd $(FRONTEND) && node scripts/unit-tests.mjs

test-browser: frontend ## The browser tests in Debian's Chromium
	@# Builds target/debug/laundry with test-rust's very command: after it, nothing to do. (With
	@# `-p laundry` alone, ssr-runtime is not selected, so it lacks its `default` feature (laundry
	@# asks for `quickjs` only): another build of both crates, two minutes of CI.)
	cargo test --workspace --no-run
	cd $(FRONTEND) && npx playwright test

deny: ## Licences, duplicate and wildcard crates, sources (cargo-deny; see deny.toml)
	cargo deny check licenses bans sources

test: fmt-check check-v8 lint-frontend test-rust test-frontend test-browser ## Everything CI runs: the lints of `make lint` (clippy's within the tests' build) and every test

# The cargo profile the benches build in: `bench` (release) for figures; `test` for bench-check,
# with ssr-runtime's default feature as the workspace's test build has it, so that bench-check
# reuses that build instead of building the server and every dependency again (minutes of CI).
BENCH_PROFILE ?= bench
BENCH_FLAGS ?=

bench: frontend ## Print render, load, order, Node-comparison, login-flood, history-size and photo figures (see BENCHMARKS.md)
	@# Each bench runs the server binary cargo builds with it, in the same profile.
	cargo bench --profile $(BENCH_PROFILE) $(BENCH_FLAGS) -p laundry --bench pages
	@# Orders on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (as .ci/run sets it).
	cargo bench --profile $(BENCH_PROFILE) $(BENCH_FLAGS) -p laundry --bench orders
	@# Per-request pages against a Node peer (frontend/scripts/node-render-server.mjs), /pricing
	@# beside them, and a login flood (issue 13).
	cargo bench --profile $(BENCH_PROFILE) $(BENCH_FLAGS) -p laundry --bench load
	@# A year of history at 1,000, 10,000 and 100,000 orders, on SQLite and on PostgreSQL (issue 32).
	cargo bench --profile $(BENCH_PROFILE) $(BENCH_FLAGS) -p laundry --bench scale
	@# A 4 MB phone photo kept, and twenty at once: time and the server's memory (issue 36).
	cargo bench --profile $(BENCH_PROFILE) $(BENCH_FLAGS) -p laundry --bench photos

bench-quick: ## The benches with a tenth of the work, release build: quick figures
	BENCH_QUICK=1 $(MAKE) bench

bench-check: ## The benches with a tenth of the work in the tests' build (no release build): they still run and their checks hold (CI); the figures mean nothing
	BENCH_QUICK=1 BENCH_PROFILE=test BENCH_FLAGS="--features ssr-runtime/default" $(MAKE) bench

lighthouse: build ## Lighthouse scores of every public page (needs chromium; fetches lighthouse with npx)
	scripts/lighthouse.sh

clean: ## Remove build outputs
	cargo clean
	rm -rf $(FRONTEND)/dist
