import { AddressInfo } from 'node:net';
import { chromium, Browser } from 'playwright-core';
import { TestApp } from '@app/testing';
import { JobBackend } from '../src/jobs/bullmq/job-backend';
import { JobRunner } from '../src/jobs/bullmq/job-runner';
import { OnboardingService } from '../src/modules/organizations/application/onboarding.service';
import { PurgeDeletedSpaces } from '../src/modules/spaces/application/space.jobs';
import { Logger } from '@nestjs/common';

Logger.overrideLogger(false);

/** The operator's console in a real headless Chromium: sign in, find a failed job, retry it, see it complete. */
describe('operator console (/admin/queues)', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let runner: JobRunner;
  let adminToken: string;
  let userToken: string;
  let broken = true;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const onboarding = t.get<OnboardingService>(OnboardingService);
    adminToken = (await onboarding.registerUser({ email: 'ops@example.com', displayName: 'Ops', instanceAdmin: true })).token;
    userToken = (await t.user()).token;
    // The purge's queue, worked by a stand-in handler this test can break and mend.
    runner = new JobRunner(t.get(JobBackend), [PurgeDeletedSpaces], new Map([[PurgeDeletedSpaces.name, {
      handle: async () => {
        if (broken) throw new Error('storage unavailable');
        return { purged: 0 };
      },
    }]]));
    await runner.start();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60000);

  afterAll(async () => {
    await browser?.close();
    await runner?.close();
    await t?.close();
  });

  it('is closed to callers without a token (401) and to users who are not instance administrators (403)', async () => {
    const api = `${base}/admin/queues/api/queues`;
    expect((await fetch(api)).status).toBe(401);
    const notAdmin = await fetch(api, { headers: { authorization: `Bearer ${userToken}` } });
    expect(notAdmin.status).toBe(403);
    expect(await notAdmin.json()).toEqual({ error: { code: 403, message: 'The console is open to instance administrators only' } });
    expect((await fetch(api, { headers: { authorization: `Bearer ${adminToken}` } })).status).toBe(200);
    const root = await fetch(`${base}/admin`, { redirect: 'manual' });
    expect(root.headers.get('location')).toBe('/admin/queues');
    const page = await fetch(`${base}/admin/queues`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/admin/login');
    const wrongLogin = await fetch(`${base}/admin/login`, { method: 'POST', body: new URLSearchParams({ token: userToken }), redirect: 'manual' });
    expect(wrongLogin.status).toBe(401);
    expect(wrongLogin.headers.get('set-cookie')).toBeNull();
    expect(await wrongLogin.text()).toContain('users:promote');
    const unknown = await fetch(`${base}/admin/login`, { method: 'POST', body: new URLSearchParams({ token: 'gbp_not_a_token_at_all' }), redirect: 'manual' });
    expect([unknown.status, (await unknown.text()).includes('Unknown token')]).toEqual([401, true]);
  });

  it('keeps a session id in the cookie, never the token; signing out, revoking the token or expiry ends the session', async () => {
    const api = `${base}/admin/queues/api/queues`;
    const signIn = async (token: string) => {
      const res = await fetch(`${base}/admin/login`, { method: 'POST', body: new URLSearchParams({ token }), redirect: 'manual' });
      expect(res.status).toBe(303);
      return String(res.headers.get('set-cookie')).split(';')[0];
    };
    const withCookie = async (cookie: string) => (await fetch(api, { headers: { cookie } })).status;
    const cookie = await signIn(adminToken);
    expect(cookie).toMatch(/^docs_admin=[\w-]{43}$/);
    expect(cookie).not.toContain(encodeURIComponent(adminToken));
    expect(JSON.stringify(await t.dataSource.query('SELECT * FROM console_sessions'))).not.toContain(cookie.split('=')[1]);
    expect(await withCookie(cookie)).toBe(200);
    // Signing out ends it on the server, not only in this browser.
    await fetch(`${base}/admin/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(await withCookie(cookie)).toBe(401);
    // Expiry (8 hours) and a revoked token end it too.
    const later = await signIn(adminToken);
    t.clock.advance(8 * 60 * 60 * 1000 + 1000);
    expect(await withCookie(later)).toBe(401);
    const onboarding = t.get<OnboardingService>(OnboardingService);
    const other = await onboarding.registerUser({ email: 'ops2@example.com', displayName: 'Ops 2', instanceAdmin: true });
    const revoked = await signIn(other.token);
    expect(await withCookie(revoked)).toBe(200);
    await t.dataSource.query(`UPDATE api_tokens SET expires_at = '2000-01-01' WHERE user_id = $1`, [other.user.id]);
    expect(await withCookie(revoked)).toBe(401);
    expect(await withCookie('docs_admin=not-a-session')).toBe(401);
  });

  it('signs in, shows a failed job, retries it and shows it completed', async () => {
    const queue = t.get<JobBackend>(JobBackend).queue(PurgeDeletedSpaces.queue);
    const job = await queue.add(PurgeDeletedSpaces.name, {}, { attempts: 1 });
    for (let i = 0; i < 100 && (await job.getState()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 100));

    const page = await browser.newPage();
    await page.goto(`${base}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.fill('#token', adminToken);
    await Promise.all([page.waitForURL(/\/admin\/queues/), page.click('button[type=submit]')]);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'docs_admin')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });

    const queuePath = `${base}/admin/queues/queue/${encodeURIComponent(t.get<JobBackend>(JobBackend).queueName(PurgeDeletedSpaces.queue))}`;
    await page.goto(`${queuePath}?status=failed`);
    await page.getByText('storage unavailable').first().waitFor({ timeout: 15000 });

    broken = false;
    // The job card's retry is an icon button (the queue header's is labelled "Retry all").
    await page.locator('button:has(svg.lucide-refresh-cw):not(:has-text("Retry all"))').first().click();
    const confirm = page.getByRole('button', { name: /^(Retry|Confirm|Yes)$/ });
    await confirm.last().click({ timeout: 2000 }).catch(() => undefined); // when the board asks to confirm
    for (let i = 0; i < 100 && (await job.getState()) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await job.getState()).toBe('completed');

    await page.goto(`${queuePath}?status=completed`);
    await page.getByText(`#${job.id}`).first().waitFor({ timeout: 15000 });

    // Signing out drops the session: the board sends the browser back to the login.
    await page.context().request.post(`${base}/admin/logout`, { maxRedirects: 0 });
    await page.goto(`${base}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await page.close();
  }, 60000);
});
