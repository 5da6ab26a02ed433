#!/usr/bin/env bash
# The whole test suite: contract, server (SQLite), the print agent (against a
# real CUPS queue), web units, then the browser tests against the real server
# and built console. Installs the browser, fonts and CUPS from Debian when they
# are missing and we may (root with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qi "noto sans cjk" || need+=(fonts-noto-cjk)
# Label tests read PDFs back with poppler (pdftoppm, pdftotext, pdfinfo); the print agent's tests
# print to a cups-pdf queue (they start cupsd themselves).
command -v cupsd >/dev/null || need+=(cups)
command -v lp >/dev/null || need+=(cups-client)
[ -x /usr/lib/cups/backend/cups-pdf ] || need+=(printer-driver-cups-pdf)
command -v pdfinfo >/dev/null || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${need[*]} for the browser tests…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "The tests need: ${need[*]} (apt-get install ${need[*]})" >&2
    exit 1
  fi
fi

[ -x node_modules/.bin/node ] || npm install --no-audit --no-fund

# Each part says when it starts and how long the run has taken so far, so CI's log shows where the
# time goes (issue 37); .ci/run's steps do the same one level up.
start=$(date +%s)
# And how busy the CPUs were during the part before (busy / all jiffies of /proc/stat): a part that
# leaves them idle is waiting, and more workers would pay.
cpu() { awk '/^cpu /{ print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8 }' /proc/stat; }
read -r busy0 all0 < <(cpu)
part() {
  local busy all
  read -r busy all < <(cpu)
  [ "$all" -gt "$all0" ] && echo "(CPU busy during the part before: $(( 100 * (busy - busy0) / (all - all0) ))%, load $(cut -d' ' -f1-3 /proc/loadavg))"
  busy0=$busy all0=$all
  echo; echo "--- $(date -u +%H:%M:%S) (+$(( $(date +%s) - start ))s) $*"
}

part "Contract"
npm run test -w packages/contract
part "Server (SQLite)"
npm run test -w apps/server
part "Print agent"
npm run test -w apps/print-agent
part "Web units"
npm run test -w apps/web
# The browser tests' config builds the console before it starts the server (a run of one spec gets
# the current web too), so it is not built here a second time.
part "Browser tests (builds the console first)"
npm run test -w e2e
part "Done"
