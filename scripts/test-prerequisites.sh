#!/usr/bin/env bash
# The programs the test suite runs besides Node (README, "Tests"): Debian's Chromium for the
# browser test, a font with Chinese glyphs for its screenshots of Chinese pages (WenQuanYi Zen Hei,
# when no installed font covers Chinese), redis-server for the Redis fault and two-instance tests,
# and Prometheus (with promtool) for the dashboard and alerts test. `npm test` runs this first
# (pretest), and so does .ci/run. Missing ones are installed from Debian's packages when this user
# may (root with apt-get); otherwise it says what to install and fails, because a test never skips
# itself.
set -euo pipefail

missing() {
  local names=()
  [ -x /usr/bin/chromium ] || names+=(chromium)
  [ -n "$(fc-list :lang=zh 2>/dev/null)" ] || names+=(fonts-wqy-zenhei)
  command -v redis-server >/dev/null 2>&1 || names+=(redis-server)
  [ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || names+=(prometheus)
  echo "${names[@]}"
}

needed="$(missing)"
[ -z "$needed" ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing $needed (Debian packages) for the tests" >&2
  # shellcheck disable=SC2086 # one word per package
  { timeout 300 apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq $needed; } >/dev/null 2>&1 || true
  needed="$(missing)"
fi
if [ -n "$needed" ]; then
  echo "The tests need Debian's $needed: apt-get install $needed" >&2
  exit 1
fi
