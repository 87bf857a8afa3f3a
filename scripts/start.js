#!/usr/bin/env node
// `npm start`: builds when the build is missing or older than the sources, then runs the server.
// No DATABASE_URL: the embedded default (API + worker + PostgreSQL in one process, data in ./var).
// DATABASE_URL set: the API alone, as `npm run start:prod` (run `npm run start:worker` beside it).
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = process.env.DATABASE_URL ? 'dist/src/main.js' : 'dist/src/embedded.js';

function newest(dir) {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

const built = existsSync(join(root, entry)) ? statSync(join(root, entry)).mtimeMs : 0;
if (built < Math.max(newest(join(root, 'src')), newest(join(root, 'libs/common/src')))) {
  process.stdout.write('Building (first start or changed sources)...\n');
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
}
require(join(root, entry));
