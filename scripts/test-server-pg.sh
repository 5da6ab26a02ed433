#!/usr/bin/env bash
# The server suite again on PostgreSQL: TEST_DATABASE_URL (default: the local
# server with trust auth). Each test file creates and drops its own database.
set -euo pipefail
cd "$(dirname "$0")/.."
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
npm run test -w apps/server
