#!/usr/bin/env bash
# Installs and starts the API the way docker/Dockerfile does (built output, production dependencies only,
# NODE_ENV=production) in a temporary directory, then checks what the image would break: the server starts and
# migrates, the CLI creates a user whose token works, and the served OpenAPI document still has GitBook's answer
# schemas (they come from runtime dependencies). Needs a build (npm run build), PostgreSQL, and git on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v git >/dev/null || { echo "production-check: git is required (Git Sync runs it)" >&2; exit 1; }
work=$(mktemp -d)
db="docs_prodcheck_$$_$RANDOM"
api_pid=""
cleanup() {
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null || true
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS ${db} WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

cp -r package.json package-lock.json stubs dist "$work/"
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)

psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE ${db}"
export NODE_ENV=production DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}" JOBS_BACKEND=postgres PORT=0 LOG_LEVEL=info \
  FILES_DIR="$work/files" GIT_SYNC_DIR="$work/git" QUEUE_PREFIX="prodcheck$$"
(cd "$work" && exec node dist/src/main.js > "$work/api.log" 2>&1) &
api_pid=$!
port=""
for _ in $(seq 1 120); do
  port=$(grep -o 'API listening on port [0-9]*' "$work/api.log" | grep -o '[0-9]*$' || true)
  [ -n "$port" ] && break
  sleep 0.5
done
[ -n "$port" ] || { echo "production-check: the API did not start" >&2; cat "$work/api.log" >&2; exit 1; }

token=$(cd "$work" && node dist/src/cli.js users:create --email prod@example.com --name Prod | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const m=s.match(/gbp_[A-Za-z0-9_-]+/);process.stdout.write(m?m[0]:"")})')
[ -n "$token" ] || { echo "production-check: users:create printed no token" >&2; exit 1; }
status=$(node -e 'fetch(process.argv[1], { headers: { authorization: `Bearer ${process.argv[2]}` } }).then((r) => process.stdout.write(String(r.status)), () => process.stdout.write("0"))' "http://127.0.0.1:${port}/v1/user" "$token")
[ "$status" = 200 ] || { echo "production-check: GET /v1/user answered $status" >&2; exit 1; }

schemas=$(node -e '
fetch(process.argv[1]).then((r) => r.json()).then((doc) => {
  let n = 0;
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) {
    const ok = Object.entries(op?.responses ?? {}).find(([code]) => code.startsWith("2"));
    if (ok && ok[1].content) n++;
  }
  process.stdout.write(String(n));
}, () => process.stdout.write("0"));' "http://127.0.0.1:${port}/openapi.json")
[ "$schemas" -ge 200 ] || { echo "production-check: only ${schemas} operations have 2xx answer schemas (GitBook's contract missing?)" >&2; exit 1; }
if grep -q "could not be read" "$work/api.log"; then echo "production-check: the contract could not be read" >&2; exit 1; fi
echo "production-check: ok (production install, API on port ${port}, a user's token works, ${schemas} operations with 2xx answer schemas)"
