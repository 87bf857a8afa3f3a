'use strict';
// Git Sync benchmark: import of a generated GitBook-layout repository (BENCH_PAGES pages, default 1,000, and
// BENCH_IMAGES images, default 200) end to end through the API and a worker, against the floor of the same
// `git clone` plus parsing every page's markdown alone, in one run (target: import at most 3x the floor);
// then the export of the same space to a new branch, against a plain `git clone` + write + commit + push.
// Usage: npm run build && npm run bench:git-sync
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { ROOT, REDIS_URL, uniqueName, createMigratedDatabase, dropDatabase, startApi, removeQueueKeys } = require('./lib');
const { seed } = require('./seed');

const PAGES = Number(process.env.BENCH_PAGES || 1000);
const IMAGES = Number(process.env.BENCH_IMAGES || 200);
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

function markdownFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === '.git') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...markdownFiles(full));
    else if (name.endsWith('.md')) out.push(full);
  }
  return out;
}

/** The floor: a shallow clone and every page parsed to a document, nothing stored. */
function floor(url, dir) {
  const { parsePageMarkdown } = dist('modules/content/domain/markdown/front-matter');
  const { markdownToDocument } = dist('modules/content/domain/markdown/to-document');
  const start = performance.now();
  const clone = path.join(dir, `floor-${randomBytes(3).toString('hex')}`);
  git(dir, 'clone', '-q', '--depth', '1', url, clone);
  let parsed = 0;
  for (const file of markdownFiles(clone)) {
    markdownToDocument(parsePageMarkdown(readFileSync(file, 'utf8')).body);
    parsed++;
  }
  return { ms: performance.now() - start, parsed };
}

/** The export floor: clone, rewrite every page, one commit pushed to a new branch. */
function exportFloor(url, dir) {
  const start = performance.now();
  const clone = path.join(dir, `export-floor-${randomBytes(3).toString('hex')}`);
  git(dir, 'clone', '-q', '--depth', '1', url, clone);
  for (const file of markdownFiles(clone)) writeFileSync(file, readFileSync(file, 'utf8') + '\n');
  git(clone, 'add', '-A');
  git(clone, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'floor');
  git(clone, 'push', '-q', 'origin', `HEAD:refs/heads/floor-${randomBytes(3).toString('hex')}`);
  return performance.now() - start;
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

    // Before any request: a long synchronous floor would outlive the server's keep-alive on a pooled socket.
    floor(repo.url, dir); // warm the page cache and the parser once
    const parse = floor(repo.url, dir);

    api = startApi(env);
    worker = spawn('node', [path.join(ROOT, 'dist/src/worker.js')], { env: { ...process.env, REDIS_URL, ...env, MIGRATIONS_RUN: 'false' }, stdio: ['ignore', 'ignore', 'inherit'] });
    const base = await api.url;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Imported' }) });
    const spaceId = (await created.json()).id;


    const start = performance.now();
    const res = await fetch(`${base}/v1/spaces/${spaceId}/git/import`, { method: 'POST', headers, body: JSON.stringify({ url: repo.url, ref: 'refs/heads/main' }) });
    if (res.status !== 204) throw new Error(`import answered ${res.status}`);
    const imported = await until(base, token, spaceId, (op) => op && op.direction === 'import' && ['success', 'failure'].includes(op.state));
    const importMs = performance.now() - start;
    if (imported.state !== 'success') throw new Error(`import failed: ${imported.error}`);

    const exportStart = performance.now();
    await fetch(`${base}/v1/spaces/${spaceId}/git/export`, { method: 'POST', headers, body: JSON.stringify({ url: repo.url, ref: 'refs/heads/exported', commitMessage: 'Export' }) });
    const exported = await until(base, token, spaceId, (op) => op && op.direction === 'export' && ['success', 'failure'].includes(op.state));
    const exportMs = performance.now() - exportStart;
    if (exported.state !== 'success') throw new Error(`export failed: ${exported.error}`);
    const pushFloor = exportFloor(repo.url, dir);

    console.table([
      { what: `import (${repo.pages} pages, ${IMAGES} images), end to end`, 'ms': Math.round(importMs), 'floor ms': Math.round(parse.ms), 'x floor': (importMs / parse.ms).toFixed(2) },
      { what: 'export of the same space to a new branch', 'ms': Math.round(exportMs), 'floor ms': Math.round(pushFloor), 'x floor': (exportMs / pushFloor).toFixed(2) },
    ]);
    console.log(`import floor: git clone --depth 1 + parsing ${parse.parsed} markdown files; export floor: clone + rewrite + commit + push.`);
  } finally {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.on('exit', resolve));
    }
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
