#!/usr/bin/env bash
# Runs the README's test command N times in a row while K other processes keep the cores busy,
# the way CI may find the machine right after a session. Prints one line per run and a total.
#   usage: .ci/loaded-runs.sh [runs=5] [spinners=2]
# Needs DATABASE_URL / REDIS_URL like .ci/run (or runs embedded without them).
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
spinners="${2:-2}"

pids=()
stop_spinners() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; }
trap stop_spinners EXIT
for _ in $(seq 1 "$spinners"); do
  node -e 'for (;;) {}' &
  pids+=("$!")
done

green=0
for run in $(seq 1 "$runs"); do
  summary="$(mktemp)"
  log="$(mktemp)"
  start=$(date +%s)
  JEST_SUMMARY_FILE="$summary" npm test >"$log" 2>&1
  status=$?
  counts=$(node -e '
    const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${s.passed} passed, ${s.failed} failed, ${s.skipped ?? 0} skipped`);
  ' "$summary" 2>/dev/null || echo "no summary")
  echo "run $run: exit $status, $counts, $(( $(date +%s) - start )) s (log: $log)"
  [ "$status" -eq 0 ] && green=$((green + 1))
  rm -f "$summary"
done
echo "$green of $runs runs green with $spinners spinning processes on $(nproc) cores"
[ "$green" -eq "$runs" ]
