#!/usr/bin/env bash
# The README's quickstart as a new user runs it: `npm start` on the embedded default (no
# DATABASE_URL, no REDIS_URL), the admin CLI while it runs (through the service's admin socket),
# one authenticated call, then SIGTERM and a clean exit. Every wait is bounded; any failed step
# fails the script. The data directory is a fresh temporary one (never the developer's ./data)
# and the port a free one. Run alone with `bash .ci/quickstart-smoke.sh`; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
unset DATABASE_URL REDIS_URL

START_TIMEOUT="${SMOKE_START_TIMEOUT:-300}" # includes the build `npm start` runs first
CLI_TIMEOUT="${SMOKE_CLI_TIMEOUT:-300}"     # `npm run cli` builds too
STOP_TIMEOUT="${SMOKE_STOP_TIMEOUT:-60}"

WORK="$(mktemp -d)"
LOG="$WORK/service.log"
export EMBEDDED_DATA_DIR="$WORK/data"
PORT="$(node -e '
  const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port);
    s.close();
  });')"
export PORT
BASE="http://127.0.0.1:$PORT"
SERVICE_PID=""

fail() {
  echo "quickstart smoke: FAILED: $*" >&2
  if [ -s "$LOG" ]; then
    echo "--- last lines of the service log ($LOG) ---" >&2
    tail -n 40 "$LOG" >&2
  fi
  exit 1
}

cleanup() {
  # The service runs in its own process group (setsid): stop all of it if still there.
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -KILL -- "-$SERVICE_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# Prints the value at a dotted path of a JSON document on stdin ("" when absent).
json() {
  node -e '
    let s = "";
    process.stdin.on("data", (c) => (s += c)).on("end", () => {
      let v = JSON.parse(s);
      for (const k of process.argv[1].split(".")) v = v == null ? undefined : v[k];
      console.log(v ?? "");
    });' "$1"
}

echo "quickstart smoke: npm start on port $PORT, data in $EMBEDDED_DATA_DIR"
setsid npm start >"$LOG" 2>&1 &
SERVICE_PID=$!

deadline=$((SECONDS + START_TIMEOUT))
until curl -fs -o /dev/null --max-time 5 "$BASE/health/ready"; do
  kill -0 "$SERVICE_PID" 2>/dev/null || fail "npm start exited before /health/ready answered"
  [ "$SECONDS" -lt "$deadline" ] || fail "/health/ready not 200 within ${START_TIMEOUT}s"
  sleep 1
done
echo "quickstart smoke: /health/ready answered 200 after ${SECONDS}s"

# The embedded default, not a database from the environment or a .env file: the service holds
# the data directory's lock and serves the admin socket the CLI is about to use.
[ -f "$EMBEDDED_DATA_DIR/LOCK" ] && [ -S "$EMBEDDED_DATA_DIR/admin.sock" ] ||
  fail "the service does not hold the embedded database in $EMBEDDED_DATA_DIR (DATABASE_URL in .env?)"
# Owner-only, whatever the umask (docs/adr/0001-embedded-default.md).
modes="$(stat -c %a "$EMBEDDED_DATA_DIR" "$EMBEDDED_DATA_DIR/admin.sock" "$EMBEDDED_DATA_DIR/.s.PGSQL.5432" | tr '\n' ' ')"
[ "$modes" = "700 600 600 " ] || fail "data directory, admin and PGlite sockets have modes $modes (want 700 600 600)"

cli() {
  local out
  local code=0
  out="$(timeout "$CLI_TIMEOUT" npm run -s cli -- "$@" 2>"$WORK/cli.err")" || code=$?
  [ "$code" -eq 0 ] || fail "npm run -s cli -- $* exited $code: $out $(cat "$WORK/cli.err")"
  printf '%s' "$out"
}

app="$(cli app create --name "Smoke App" --redirect-uri http://localhost:8080/callback --json)"
app_id="$(json id <<<"$app")"
[ -n "$app_id" ] || fail "app create printed no id: $app"
key_json="$(cli key create --app "$app_id" --scopes user:read,stats:read --name backend --json)"
key="$(json key <<<"$key_json")"
[[ "$key" == svc_live_* ]] || fail "key create printed no key: $key_json"
echo "quickstart smoke: CLI created application $app_id and an API key"

me="$WORK/me.json"
status="$(curl -sS --max-time 30 -o "$me" -w '%{http_code}' \
  -H "Authorization: Bearer $key" "$BASE/api/v1/app/me")" || fail "GET /api/v1/app/me did not answer"
[ "$status" = 200 ] || fail "GET /api/v1/app/me answered $status: $(cat "$me")"
name="$(json app.name <"$me")"
[ "$name" = "Smoke App" ] || fail "GET /api/v1/app/me named the application '$name': $(cat "$me")"
echo "quickstart smoke: GET /api/v1/app/me answered 200 for 'Smoke App'"

# Stop it as a terminal would: SIGTERM to the process group (npm and the node process).
kill -TERM -- "-$SERVICE_PID"
deadline=$((SECONDS + STOP_TIMEOUT))
while kill -0 "$SERVICE_PID" 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || fail "still running ${STOP_TIMEOUT}s after SIGTERM"
  sleep 0.2
done
set +e
wait "$SERVICE_PID"
code=$?
set -e
# npm may exit on the signal before the node process has finished its shutdown: wait for the
# whole process group (npm and node) to be gone before looking at the lock.
while kill -0 -- "-$SERVICE_PID" 2>/dev/null; do
  [ "$SECONDS" -lt "$deadline" ] || fail "the service process still runs ${STOP_TIMEOUT}s after SIGTERM"
  sleep 0.2
done
SERVICE_PID=""
# A clean stop closes the embedded database and releases its lock.
[ ! -e "$EMBEDDED_DATA_DIR/LOCK" ] || fail "exited ($code) after SIGTERM but left the data directory locked"
echo "quickstart smoke: stopped on SIGTERM (exit $code); passed"
