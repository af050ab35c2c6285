# mcpvm developer recipes (https://github.com/casey/just). Each wraps an npm script so npm alone also works.

default:
    @just --list

# Install dependencies and build (npm's prepare step compiles TypeScript to dist/)
install:
    npm ci

# The whole test suite (what CI runs, plus typecheck and lint)
test:
    npm test

ci:
    bash .ci/run

typecheck:
    npm run typecheck

lint:
    npm run lint

build:
    npm run build

# Benchmarks; writes bench/RESULTS.md
bench:
    npm run bench

# Fetch the prebuilt Hyperlight addon (from the npm package @hyperlight-dev/hyperagent) and verify its digests
hyperlight:
    npm run setup:hyperlight

# Which engine would run, and why
doctor:
    node bin/mcpvm.js doctor

# The 60-second tour on the embedded default servers
demo:
    npm start
