import { Logger } from '@nestjs/common';
import { Browser, Page, chromium } from 'playwright-core';
import { TestApp, TestUser, reservePort } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';

Logger.overrideLogger(false);

/**
 * The Ask box of a published site's pages in a real headless Chromium: the answer streams in with
 * its citations as the site's links, under the pages' CSP; a restricted audience is respected; the
 * box is gone when the site's assistant is off; the question is recorded in the `site` channel.
 */
describe('Ask box in a browser', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let alice: TestUser;
  let org: string, site: string, guides: string;
  let base: string;
  const errors: string[] = [];

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    const reserved = await reservePort();
    base = `http://127.0.0.1:${reserved.port}`;
    t = await TestApp.start({ publicUrl: base, outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-b', aiModel: 'fake-model', aiMaxRetries: 0 });
    await reserved.release();
    await t.app.listen(reserved.port, '127.0.0.1');
    alice = await t.user('Alice');
    org = await t.organization(alice);
    guides = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, guides, [
      { id: 'welcome', title: 'Welcome', slug: 'welcome', body: 'Welcome to the kettle docs.' },
      { id: 'install', title: 'Install the kettle', slug: 'install', body: '## Requirements\n\nThe kettle needs a 230 V socket.' },
    ]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Kettle Docs', spaces: [guides] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'kettle' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 60000);

  beforeEach(async () => {
    page = await (await browser.newContext()).newPage();
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  });
  afterEach(async () => page?.context().close());
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('streams the answer with its sources into the page', async () => {
    fake.answerWith(() => 'Plug it into a **230 V** socket [1]. <img src=x onerror="window.pwned=1">');
    await page.goto(`${base}/sites/kettle/welcome`);
    await page.locator('form.ask input[name=q]').fill('What socket does the kettle need?');
    await page.locator('form.ask button').click();
    const answer = page.locator('#ask-answer');
    await answer.locator('strong', { hasText: '230 V' }).waitFor({ timeout: 10_000 });
    expect(await answer.innerText()).toContain('Plug it into a 230 V socket');
    const source = answer.locator('.ask-sources a');
    expect(await source.innerText()).toBe('Install the kettle');
    expect(await source.getAttribute('href')).toBe(`${base}/sites/kettle/install`);
    // The model's HTML never runs: the server sanitized it, and the CSP allows no other script.
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors.filter((e) => /Content Security Policy/.test(e))).toEqual([]);
    await source.click();
    await page.waitForURL(`${base}/sites/kettle/install`);

    const answers = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${site}/answers`)).body.items;
    expect(answers[0]).toMatchObject({ channel: { type: 'site' }, input: { raw: 'What socket does the kettle need?' } });
  });

  it('is gone when the assistant is off, and the address refuses questions', async () => {
    await alice.client.must.put(`/v1/orgs/${org}/sites/${site}/agent-settings`, { scans: { topics: 'auto' }, findings: { changeRequests: 'never' }, editing: { customInstructions: { object: 'document', data: {}, nodes: [] } }, assistant: { enabled: false } });
    // The next view of a page served before (and cached) has no box: the settings moved the site's pages on.
    await page.goto(`${base}/sites/kettle/install`);
    expect(await page.locator('form.ask').count()).toBe(0);
    const refused = await fetch(`${base}/sites/kettle/~gitbook/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: 'socket' }) });
    expect(refused.status).toBe(403);
    expect((await fetch(`${base}/sites/nowhere/~gitbook/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question":"x"}' })).status).toBe(404);
  });
});
