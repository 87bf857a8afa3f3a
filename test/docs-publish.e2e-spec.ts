import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, Browser } from 'playwright-core';
import { TestApp, TestUser, reservePort } from '@app/testing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

// The CLI starts from source (ts-node) and imports 16 pages through Git Sync: slow on a loaded 2-core machine.
jest.setTimeout(240_000);

/**
 * `cli docs:publish`: our own docs/ imported through our Git Sync and published by our server, opened in
 * Chromium, a sidebar link followed; a second run updates the same site.
 */
describe('docs:publish serves our documentation as a published site', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let ada: TestUser;
  const gitDir = mkdtempSync(join(tmpdir(), 'docs-publish-git-'));

  beforeAll(async () => {
    // The port is held while the app starts (its public URL names it), then handed to it.
    const reserved = await reservePort();
    base = `http://127.0.0.1:${reserved.port}`;
    t = await TestApp.start({ publicUrl: base });
    await reserved.release();
    await t.app.listen(reserved.port, '127.0.0.1');
    ada = await t.user('Ada');
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(gitDir, { recursive: true, force: true });
  });

  /** The CLI from source, on the test's database, files and queues. */
  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = {
      ...process.env,
      DATABASE_URL: t.config.databaseUrl,
      FILES_DIR: t.config.filesDir,
      GIT_SYNC_DIR: gitDir,
      JOBS_BACKEND: t.config.jobsBackend,
      REDIS_URL: t.config.redisUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      PUBLIC_URL: base,
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    };
    try {
      const { stdout, stderr } = await run(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env, timeout: 180_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('refuses without an instance administrator or a named user, naming what to do', async () => {
    const refused = await cli('docs:publish');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('users:create --instance-admin');
    expect(await t.dataSource.query(`SELECT id FROM organizations WHERE title = 'Docs Platform'`)).toEqual([]);
  });

  it('imports docs/ through Git Sync, publishes it, and the browser reads it and follows a link', async () => {
    const first = await cli('docs:publish', '--email', ada.email);
    expect(first).toMatchObject({ code: 0 });
    const published = JSON.parse(first.stdout);
    expect(published).toMatchObject({ owner: ada.email, url: `${base}/sites/docs-platform`, organization: expect.any(String), space: expect.any(String), site: expect.any(String) });

    // Ada sees it through the API: every page of docs/SUMMARY.md, imported by Git Sync.
    const info = await ada.client.get(`/v1/spaces/${published.space}/git/info`);
    expect(info.body.operation).toMatchObject({ state: 'success', direction: 'import' });
    const content = await ada.client.get(`/v1/spaces/${published.space}/content`);
    const titles = content.body.pages.map((page: { title: string }) => page.title);
    expect(titles.length).toBeGreaterThanOrEqual(15);
    expect(titles).toEqual(expect.arrayContaining(['Security', 'Git Sync', 'Benchmarks']));

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const landing = await page.goto(published.url);
    expect(landing?.status()).toBe(200);
    expect(await page.locator('h1').first().textContent()).toContain('Docs Platform Server');
    await page.locator('nav a', { hasText: 'Security' }).first().click();
    await page.waitForURL(/\/security$/);
    expect(await page.locator('h1').first().textContent()).toBe('Security');
    expect(await page.locator('main').textContent()).toContain('Guarantees, each held by an end-to-end test');
    expect(errors).toEqual([]);
    await page.close();

    // Again: the same organization, space and site, the docs imported once more.
    const second = await cli('docs:publish', '--email', ada.email);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ organization: published.organization, space: published.space, site: published.site, url: published.url });
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM sites WHERE title = 'Docs Platform'`)).toEqual([{ n: 1 }]);
  });
});
