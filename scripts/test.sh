#!/usr/bin/env bash
# `npm test`: everything CI runs. Lint, type-check, build, unit and service tests on the embedded PostgreSQL and on
# an external one (TEST_DATABASE_URL), then the end-to-end tests in Debian's Chromium; `npm audit` of the production
# dependencies. Build, audit and a start of the built server run on the machine's Node (20 here, which `npm start`
# must keep serving); the tests and the end-to-end server run on Node 24 from the npm registry (scripts/node24.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s\n' "$*"; }

step "system packages"
bash scripts/install-system-deps.sh

step "lint"
npm run --silent lint

step "type-check"
npm run --silent typecheck

step "build"
npm run --silent build

step "dependency audit (npm audit --omit=dev, high and critical; allow-list in audit-allowlist.json)"
if ! audit_note="$(node scripts/audit.mjs 2>&1)"; then
  echo "$audit_note"
  exit 1
fi
echo "$audit_note"

projects=(--project core --project web --project server-unit --project server-embedded)
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  # Developer machines here run a PostgreSQL at 127.0.0.1:5432; CI sets TEST_DATABASE_URL explicitly.
  default_url="postgres://postgres@127.0.0.1:5432/test"
  if node -e "const c=new (require('pg').Client)({connectionString:process.argv[1],connectionTimeoutMillis:2000});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))" "$default_url" 2>/dev/null; then
    export TEST_DATABASE_URL="$default_url"
  fi
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  projects+=(--project server-external)
  external_note="external PostgreSQL tests ran against ${TEST_DATABASE_URL%%\?*}"
else
  external_note="external PostgreSQL tests NOT RUN: TEST_DATABASE_URL is not set and no server answers at 127.0.0.1:5432"
fi

step "the built server starts on the machine's Node ($(node -v))"
node scripts/start-smoke.mjs

step "Node 24 for the tests"
node24_bin="$(bash scripts/node24.sh)"
# Child processes (document sandbox, CLI and server tests, the end-to-end server) find `node` on PATH too.
export PATH="$node24_bin:$PATH"
node scripts/native-addons.mjs >/dev/null
echo "tests run on Node $(node -p process.versions.node); built on the machine's Node"

step "unit and service tests (${projects[*]})"
npx vitest run "${projects[@]}"

step "end-to-end tests (Chromium)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test

step "done"
echo "$external_note"
echo "$audit_note" | tail -n 1
