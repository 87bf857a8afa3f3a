'use strict';
// Git Sync benchmark, in one run:
// - import of a generated GitBook-layout repository (BENCH_PAGES pages, default 1,000, and BENCH_IMAGES images,
//   default 500) end to end through the API and a worker, and the export of that space into an empty repository
//   (every file written), each against the git floor measured in the same run: `git clone --bare` + `ls-tree -r` +
//   `cat-file --batch` of every blob (target: at most 3x); an export after one edit (what an export usually is);
// - the worker's peak RSS while it refuses a repository over GIT_SYNC_MAX_BYTES (BENCH_BIG_MB of incompressible
//   blobs, default 400, against a limit of 100 MB): target under 300 MB whatever the repository's size.
// - the worker's peak RSS while it imports, then exports, a repository whose one asset is BENCH_BIG_ASSET_MB
//   (default 300) of incompressible bytes: target under 300 MB, so the asset streams through.
// Usage: npm run build && npm run bench:git-sync
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const PAGES = Number(process.env.BENCH_PAGES || 1000);
const IMAGES = Number(process.env.BENCH_IMAGES || 500);
const BIG_MB = Number(process.env.BENCH_BIG_MB || 400);
const BIG_ASSET_MB = Number(process.env.BENCH_BIG_ASSET_MB || 300);
const LIMIT_BYTES = 100 * 1024 * 1024;
const SECTIONS = 10;
const dist = (p) => require(path.join(ROOT, 'dist/src', p));

function git(cwd, ...args) {
  return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

function page(i, image) {
  return [
    '---',
    `description: What page ${i} covers.`,
    '---',
    '',
    `# Page ${i}`,
    '',
    `This page explains **feature ${i}** and links to [the next one](page-${i + 1}.md).`,
    '',
    '{% hint style="info" %}',
    `Feature ${i} needs version ${i % 7}.`,
    '{% endhint %}',
    '',
    '## Steps',
    '',
    '1. Install it',
    '2. Configure it',
    '3. Run it',
    '',
    '```js',
    `const feature = load(${i});`,
    '```',
    '',
    ...(image ? [`![Screenshot ${i}](../.gitbook/assets/${image})`, ''] : []),
  ].join('\n');
}

/** A bare repository in GitBook's layout: SUMMARY.md with one group per section, README per section, images. */
function generateRepository(dir) {
  const work = path.join(dir, 'work');
  const bare = path.join(dir, 'repo.git');
  mkdirSync(path.join(work, '.gitbook/assets'), { recursive: true });
  for (let k = 0; k < IMAGES; k++) {
    // A PNG signature and random bytes: the importer stores images as files, it does not decode them.
    writeFileSync(path.join(work, '.gitbook/assets', `image-${k}.png`), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(20 * 1024)]));
  }
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  writeFileSync(path.join(work, 'README.md'), '# Welcome\n\nThe generated docs.\n');
  const perSection = Math.ceil((PAGES - 1) / SECTIONS);
  let n = 1;
  for (let s = 0; s < SECTIONS && n < PAGES; s++) {
    const folder = `section-${s}`;
    mkdirSync(path.join(work, folder));
    summary.push(`## Section ${s}`, '', `* [Section ${s}](${folder}/README.md)`);
    writeFileSync(path.join(work, folder, 'README.md'), `# Section ${s}\n\nPages of section ${s}.\n`);
    n++;
    for (let p = 1; p < perSection && n < PAGES; p++, n++) {
      const image = n % Math.max(1, Math.floor(PAGES / IMAGES)) === 0 ? `image-${(n / Math.floor(PAGES / IMAGES)) % IMAGES}.png` : null;
      writeFileSync(path.join(work, folder, `page-${n}.md`), page(n, image));
      summary.push(`  * [Page ${n}](${folder}/page-${n}.md)`);
    }
    summary.push('');
  }
  writeFileSync(path.join(work, 'SUMMARY.md'), summary.join('\n'));
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'Generated docs');
  git(dir, 'clone', '-q', '--bare', work, bare);
  return { url: `file://${bare}`, pages: n };
}

/** The git floor: a bare clone, its tree listed, every blob read once through one cat-file --batch. */
function gitFloor(url, dir) {
  const start = performance.now();
  const clone = path.join(dir, `floor-${randomBytes(3).toString('hex')}.git`);
  git(dir, 'clone', '-q', '--bare', '--depth', '1', url, clone);
  const listing = git(clone, 'ls-tree', '-r', 'HEAD');
  const oids = listing.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[2]);
  const out = execFileSync('git', ['cat-file', '--batch'], { cwd: clone, input: `${oids.join('\n')}\n`, maxBuffer: 1024 * 1024 * 1024 });
  const ms = performance.now() - start;
  rmSync(clone, { recursive: true, force: true });
  return { ms, blobs: oids.length, bytes: out.length };
}

/** A bare repository holding `mb` megabytes of incompressible blobs, written by fast-import (no work tree). */
function bigRepository(dir, mb) {
  const bare = path.join(dir, 'big.git');
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  const chunks = [Buffer.from('commit refs/heads/main\ncommitter Bench <b@x> 0 +0000\ndata 3\nbig\n')];
  chunks.push(Buffer.from('M 100644 inline README.md\ndata 8\n# Big\n\n\n'));
  for (let k = 0; k < mb; k++) {
    const blob = randomBytes(1024 * 1024);
    chunks.push(Buffer.from(`M 100644 inline .gitbook/assets/blob-${k}.bin\ndata ${blob.length}\n`), blob, Buffer.from('\n'));
  }
  execFileSync('git', ['-c', 'pack.compression=0', 'fast-import', '--quiet'], { cwd: bare, input: Buffer.concat(chunks), maxBuffer: 1024 * 1024 });
  return `file://${bare}`;
}

/** A bare repository whose one asset is `mb` megabytes of incompressible bytes, linked from its readme. */
function oneBigAssetRepository(dir, mb) {
  const bare = path.join(dir, 'big-asset.git');
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  const readme = Buffer.from('# Big asset\n\n[The file](.gitbook/assets/video.mp4)\n');
  const blob = randomBytes(mb * 1024 * 1024);
  const input = Buffer.concat([
    Buffer.from('commit refs/heads/main\ncommitter Bench <b@x> 0 +0000\ndata 3\nbig\n'),
    Buffer.from(`M 100644 inline README.md\ndata ${readme.length}\n`), readme, Buffer.from('\n'),
    Buffer.from(`M 100644 inline .gitbook/assets/video.mp4\ndata ${blob.length}\n`), blob, Buffer.from('\n'),
  ]);
  execFileSync('git', ['-c', 'pack.compression=0', 'fast-import', '--quiet'], { cwd: bare, input, maxBuffer: 1024 * 1024 });
  return `file://${bare}`;
}

/** The phases of the space's import, as the operation recorded them. */
async function phases(databaseUrl, spaceId) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT result FROM git_sync_operations WHERE space_id = $1 AND direction = 'import' ORDER BY created_at DESC LIMIT 1", [spaceId]);
    return rows[0]?.result?.durationsMs ?? null;
  } finally {
    await client.end();
  }
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

function startWorker(env) {
  return spawn('node', [path.join(ROOT, 'dist/src/worker.js')], { env: { ...process.env, REDIS_URL, ...env, MIGRATIONS_RUN: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function stopWorker(worker) {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.on('exit', resolve));
  }
}

async function until(base, token, spaceId, done) {
  for (;;) {
    const res = await fetch(`${base}/v1/spaces/${spaceId}/git/info`, { headers: { authorization: `Bearer ${token}` } });
    const info = res.status === 200 ? await res.json() : null;
    if (info && done(info.operation)) return info.operation;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main() {
  const name = uniqueName('gitsync');
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-bench-gitsync-'));
  const env = {
    QUEUE_PREFIX: name,
    GIT_ALLOWED_PROTOCOLS: 'https,ssh,file',
    GIT_SYNC_DIR: path.join(dir, 'cache'),
    GIT_SYNC_MAX_BYTES: String(LIMIT_BYTES),
    FILES_DIR: path.join(dir, 'files'),
    PUBLIC_URL: 'http://localhost',
    LOG_LEVEL: 'warn',
  };
  let api;
  let worker;
  try {
    const databaseUrl = await createMigratedDatabase(name);
    Object.assign(env, { DATABASE_URL: databaseUrl });
    const { token, organizationId } = await seed(databaseUrl, { spaces: 0 });
    const repo = generateRepository(dir);
    console.log(`repository: ${repo.pages} pages, ${IMAGES} images`);
    const big = bigRepository(dir, BIG_MB);
    const bigAsset = oneBigAssetRepository(dir, BIG_ASSET_MB);
    const empty = path.join(dir, 'empty.git');
    git(dir, 'init', '-q', '--bare', '-b', 'main', empty);

    gitFloor(repo.url, dir); // warm the page cache once
    const floor = gitFloor(repo.url, dir);

    api = startApi(env);
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const newSpace = async (title) => (await (await fetch(`${base}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title }) })).json()).id;
    const sync = async (spaceId, direction, body) => {
      const start = performance.now();
      const requested = Date.now();
      const res = await fetch(`${base}/v1/spaces/${spaceId}/git/${direction}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status !== 204) throw new Error(`${direction} answered ${res.status}`);
      const op = await until(base, token, spaceId, (o) => o && o.direction === direction && ['success', 'failure'].includes(o.state) && Date.parse(o.startedAt) >= requested - 1000);
      return { op, ms: performance.now() - start };
    };

    // A fresh worker refuses the big repository first, so its peak memory is that refusal's.
    worker = startWorker(env);
    const bigSpace = await newSpace('Big');
    const refused = await sync(bigSpace, 'import', { url: big, ref: 'refs/heads/main' });
    if (refused.op.state !== 'failure') throw new Error('the big repository was not refused');
    const refusalPeak = peakRssMb(worker.pid);
    await stopWorker(worker);

    worker = startWorker(env);
    // Warm the worker (started, connected, code compiled) with a small import, as a running worker would be.
    const small = path.join(dir, 'small.git');
    git(dir, 'init', '-q', '--bare', '-b', 'main', small);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: small, input: 'commit refs/heads/main\ncommitter B <b@x> 0 +0000\ndata 1\nx\nM 100644 inline README.md\ndata 12\n# Small\n\nHi.\n\n' });
    await sync(await newSpace('Warm-up'), 'import', { url: `file://${small}`, ref: 'refs/heads/main' });
    const spaceId = await newSpace('Imported');
    const imported = await sync(spaceId, 'import', { url: repo.url, ref: 'refs/heads/main' });
    if (imported.op.state !== 'success') throw new Error(`import failed: ${imported.op.error}`);
    const full = await sync(spaceId, 'export', { url: `file://${empty}`, ref: 'refs/heads/main', commitMessage: 'Export', force: true });
    if (full.op.state !== 'success') throw new Error(`export failed: ${full.op.error}`);

    // One page edited, then exported to the repository it came from: one file changes.
    const pages = await (await fetch(`${base}/v1/spaces/${spaceId}/content/pages`, { headers })).json();
    const target = pages.pages[1].pages?.[1] ?? pages.pages[0];
    const cr = await (await fetch(`${base}/v1/spaces/${spaceId}/change-requests`, { method: 'POST', headers, body: JSON.stringify({ subject: 'edit' }) })).json();
    await fetch(`${base}/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ changes: [{ operation: 'update_page', page: target.id, document: { markdown: `# ${target.title}\n\nEdited.\n` } }] }),
    });
    await fetch(`${base}/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { method: 'POST', headers });
    const before = git(dir, '--git-dir', repo.url.slice('file://'.length), 'rev-parse', 'main').trim();
    const edit = await sync(spaceId, 'export', { url: repo.url, ref: 'refs/heads/main', commitMessage: 'Edit' });
    if (edit.op.state !== 'success') throw new Error(`export failed: ${edit.op.error}`);
    const changed = git(dir, '--git-dir', repo.url.slice('file://'.length), 'diff', '--name-only', before, 'main').trim().split('\n').filter(Boolean);

    console.table([
      { what: `import (${repo.pages} pages, ${IMAGES} images), end to end`, ms: Math.round(imported.ms), 'floor ms': Math.round(floor.ms), 'x floor': (imported.ms / floor.ms).toFixed(2) },
      { what: 'export of the space into an empty repository (every file)', ms: Math.round(full.ms), 'floor ms': Math.round(floor.ms), 'x floor': (full.ms / floor.ms).toFixed(2) },
      { what: `export after one edit (${changed.length} file changed)`, ms: Math.round(edit.ms), 'floor ms': Math.round(floor.ms), 'x floor': (edit.ms / floor.ms).toFixed(2) },
    ]);
    await stopWorker(worker);

    // A fresh worker, its limit raised, imports a repository holding one big asset, then exports it: its
    // peak memory shows whether the asset passed through as a stream or whole.
    worker = startWorker({ ...env, GIT_SYNC_MAX_BYTES: String(4 * BIG_ASSET_MB * 1024 * 1024) });
    const assetSpace = await newSpace('Big asset');
    const assetImport = await sync(assetSpace, 'import', { url: bigAsset, ref: 'refs/heads/main' });
    if (assetImport.op.state !== 'success') throw new Error(`big asset import failed: ${assetImport.op.error}`);
    const assetImportPeak = peakRssMb(worker.pid);
    const assetTarget = path.join(dir, 'big-asset-export.git');
    git(dir, 'init', '-q', '--bare', '-b', 'main', assetTarget);
    const assetExport = await sync(assetSpace, 'export', { url: `file://${assetTarget}`, ref: 'refs/heads/main', commitMessage: 'Export', force: true });
    if (assetExport.op.state !== 'success') throw new Error(`big asset export failed: ${assetExport.op.error}`);
    const assetExportPeak = peakRssMb(worker.pid);
    const exportedSize = Number(git(dir, '--git-dir', assetTarget, 'cat-file', '-s', 'main:.gitbook/assets/video.mp4').trim());
    if (exportedSize !== BIG_ASSET_MB * 1024 * 1024) throw new Error(`the exported asset holds ${exportedSize} bytes`);

    console.log(`import phases (ms): ${JSON.stringify(await phases(databaseUrl, spaceId))}`);
    console.log(
      `one ${BIG_ASSET_MB} MB asset: imported in ${(assetImport.ms / 1000).toFixed(1)} s, worker peak RSS ${assetImportPeak.toFixed(0)} MB; ` +
        `exported in ${(assetExport.ms / 1000).toFixed(1)} s, peak RSS ${assetExportPeak.toFixed(0)} MB (target < 300 MB: streamed, never whole in memory)`,
    );
    console.log(`git floor: clone --bare + ls-tree -r + cat-file --batch of ${floor.blobs} blobs (${(floor.bytes / 1048576).toFixed(1)} MB).`);
    console.log(`worker peak RSS while refusing a ${BIG_MB} MB repository over GIT_SYNC_MAX_BYTES (${LIMIT_BYTES / 1048576} MB): ${refusalPeak.toFixed(0)} MB (target < 300 MB); ${refused.op.error}`);
    const caches = path.join(dir, 'cache', bigSpace);
    console.log(`clone caches left by the refusal: ${existsSync(caches) ? readdirSync(caches).length : 0}`);
  } finally {
    await stopWorker(worker);
    if (api) await api.stop();
    await dropDatabase(name).catch(() => undefined);
    await removeQueueKeys(name).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
