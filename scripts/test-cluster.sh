#!/usr/bin/env bash
# Two real server processes behind haproxy on one fresh PostgreSQL database (issue 27), and two
# through PgBouncer (issue 38):
# TEST_DATABASE_URL is the server to create it on (default: the local one with trust auth).
# Installs haproxy from Debian when it is missing and we may (root with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v haproxy >/dev/null || need+=(haproxy)
# The kill -9 case finds the process behind a database session with ss.
command -v ss >/dev/null || need+=(iproute2)
# DATABASE_URL through PgBouncer in transaction pooling mode (cluster/pgbouncer.test.ts).
[ -x "${PGBOUNCER_BIN:-/usr/sbin/pgbouncer}" ] || need+=(pgbouncer)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${need[*]} for the cluster tests…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "The cluster tests need: ${need[*]} (apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
npm run test:cluster -w apps/server
