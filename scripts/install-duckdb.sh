#!/usr/bin/env bash
# Installs DuckDB's Node.js client, which ships a prebuilt DuckDB, from the npm registry
# into tests/interop/node_modules (the versions pinned by package-lock.json), for the
# Parquet interchange test (cmd/ooc/duckdb_test.go): a Parquet implementation independent
# of the Go library ooc uses. Installs node and npm first when missing (Debian).
# Idempotent; takes a few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
npm ci --prefix tests/interop --no-audit --no-fund --loglevel=error
node tests/interop/duckdb.mjs "SELECT 'duckdb ' || version()"
