#!/usr/bin/env bash
# The failover drill (issue 38 item 8): a PostgreSQL primary and a synchronous streaming standby
# started from Debian's binaries (as the postgres user when run as root), the database's address
# behind an haproxy TCP front, two server instances behind haproxy; the primary killed mid-work,
# the standby promoted, the address moved. Needs no database server of its own: it makes its pair
# on free loopback ports, in folders under the system's temporary folder, and removes them.
# Installs what is missing from Debian when it may (root with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v haproxy >/dev/null || need+=(haproxy)
ls /usr/lib/postgresql/*/bin/pg_basebackup >/dev/null 2>&1 || [ -n "${PG_BIN_DIR:-}" ] || need+=(postgresql)
if [ "$(id -u)" = 0 ]; then command -v runuser >/dev/null || need+=(util-linux); fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${need[*]} for the failover drill…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "The failover drill needs: ${need[*]} (apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

start=$(date +%s)
npm run test:failover -w apps/server
echo "failover drill: $(($(date +%s) - start)) s wall time"
