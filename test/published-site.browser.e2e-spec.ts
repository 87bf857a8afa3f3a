import { Logger } from '@nestjs/common';
import { SignJWT } from 'jose';
import { Browser, Page, chromium } from 'playwright-core';
import { TestApp, TestUser, reservePort } from '@app/testing';
import { OpenAPIProcessor } from '../src/modules/openapi/application/openapi-processor.service';
import { commitContent } from './content.fixtures';

Logger.overrideLogger(false);

/** A published site in a real headless Chromium: navigation, sections, variants, search, links, themes, audiences. */
describe('published site in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let alice: TestUser;
  let org: string;
  let siteId: string;
  let base: string;

  beforeAll(async () => {
    // The port is held while the app starts (its public URL names it), then handed to it.
    const reserved = await reservePort();
    base = `http://127.0.0.1:${reserved.port}`;
    t = await TestApp.start({ publicUrl: base, secretsKey: Buffer.alloc(32, 3).toString('base64') });
    await reserved.release();
    await t.app.listen(reserved.port, '127.0.0.1');
    alice = await t.user('Alice');
    org = await t.organization(alice);
    const space = async (title: string) => (await alice.client.post<any>(`/v1/orgs/${org}/spaces`, { title })).body.id as string;
    const [v1, v2, api] = [await space('Version 1'), await space('Version 2'), await space('API')];
    await commitContent(t, v1, [
      { id: 'welcome', title: 'Welcome', slug: 'welcome', body: 'Start with the [installation guide](/pages/install#requirements).\n\n## First steps\n\nHello readers.' },
      { id: 'install', title: 'Installation', slug: 'install', body: '## Requirements\n\nA computer with a kettle.\n\n{% hint style="info" %}\nBoil water first.\n{% endhint %}' },
      { id: 'usage', title: 'Usage', slug: 'usage', body: 'Use it daily.', pages: [{ id: 'advanced', title: 'Advanced usage', slug: 'advanced', body: 'For experts.' }] },
    ]);
    await commitContent(t, v2, [{ id: 'welcome2', title: 'Welcome to v2', slug: 'welcome', body: 'Everything is new in version two.' }]);
    const spec = {
      openapi: '3.0.3',
      info: { title: 'Kettle API', version: '2.0.0' },
      paths: {
        '/kettles/{id}/boil': {
          post: {
            summary: 'Boil a kettle',
            tags: ['Kettles'],
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Which kettle' }],
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { temperature: { type: 'integer' } } }, example: { temperature: 100 } } } },
            responses: { '202': { description: 'Boiling', content: { 'application/json': { schema: { type: 'object' }, example: { state: 'boiling' } } } } },
          },
        },
      },
    };
    await alice.client.must.post(`/v1/orgs/${org}/openapi`, { slug: 'kettle', source: { text: JSON.stringify(spec) } });
    const [row] = await t.dataSource.query(`SELECT id, generation FROM openapi_specs WHERE organization_id = $1 AND slug = 'kettle'`, [org]);
    await t.get<OpenAPIProcessor>(OpenAPIProcessor).process({ specId: row.id, generation: row.generation });
    await commitContent(t, api, [
      { id: 'endpoints', title: 'Endpoints', slug: 'endpoints', body: '```http\nGET /pets\n```' },
      { id: 'boil', title: 'Boiling', slug: 'boiling', body: 'Start the kettle remotely.\n\n{% openapi-operation spec="kettle" path="/kettles/{id}/boil" method="post" %}' },
      { id: 'reference', kind: 'computed', title: 'kettle', slug: 'kettle', computed: { type: 'builtin:openapi', props: { models: false }, dependencies: { spec: { ref: { kind: 'openapi', spec: 'kettle' } } } } },
    ]);
    siteId = (await alice.client.post<any>(`/v1/orgs/${org}/sites`, { title: 'Kettle Docs', spaces: [v1] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { basename: 'kettle' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/site-spaces`, { spaceId: v2 });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/sections`, { spaceId: api, title: 'API reference' });
    await alice.client.must.put(`/v1/orgs/${org}/sites/${siteId}/customization`, { themes: { default: 'light', toggeable: true }, styling: { primaryColor: { light: '#0a7d5a', dark: '#3fd8a5' } } });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${siteId}/publish`);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60000);

  beforeEach(async () => {
    page = await (await browser.newContext()).newPage();
  });
  afterEach(async () => page?.context().close());
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const h1 = () => page.locator('article.page h1').innerText();

  it('opens the site, navigates the sidebar, follows a page link, and goes next', async () => {
    await page.goto(`${base}/sites/kettle/`);
    expect(await h1()).toBe('Welcome');
    expect(await page.title()).toBe('Welcome | Kettle Docs');
    await page.locator('nav.sidebar').getByRole('link', { name: 'Advanced usage' }).click();
    await page.waitForURL(`${base}/sites/kettle/usage/advanced`);
    expect(await h1()).toBe('Advanced usage');
    expect(await page.locator('nav.sidebar a[aria-current="page"]').innerText()).toBe('Advanced usage');

    await page.goto(`${base}/sites/kettle/welcome`);
    await page.getByRole('link', { name: 'installation guide' }).click();
    await page.waitForURL(`${base}/sites/kettle/install#requirements`);
    expect(await h1()).toBe('Installation');
    expect(await page.locator('.hint-info').innerText()).toContain('Boil water first.');
    await page.locator('a[rel="next"]').click();
    await page.waitForURL(`${base}/sites/kettle/usage`);
    expect(await h1()).toBe('Usage');
  });

  it('switches section tab and variant', async () => {
    await page.goto(`${base}/sites/kettle/welcome`);
    await page.locator('nav.sections').getByRole('link', { name: 'API reference' }).click();
    await page.waitForURL(`${base}/sites/kettle/api-reference/`);
    expect(await h1()).toBe('Endpoints');
    expect(await page.locator('article.page pre').innerText()).toContain('GET /pets');

    await page.goto(`${base}/sites/kettle/welcome`);
    await page.locator('nav.variants summary').click();
    await page.locator('nav.variants').getByRole('link', { name: 'Version 2' }).click();
    await page.waitForURL(`${base}/sites/kettle/version-2/`);
    expect(await h1()).toBe('Welcome to v2');
  });

  it('shows an API operation embedded from an OpenAPI spec', async () => {
    await page.goto(`${base}/sites/kettle/api-reference/`);
    await page.locator('nav.sidebar').getByRole('link', { name: 'Boiling' }).click();
    await page.waitForURL(`${base}/sites/kettle/api-reference/boiling`);
    const operation = page.locator('.openapi section.op');
    expect(await operation.locator('h2').innerText()).toMatch(/POST\s*\/kettles\/\{id\}\/boil/);
    expect(await operation.innerText()).toContain('Boil a kettle');
    expect(await operation.locator('table').first().innerText()).toContain('Which kettle');
    // the request body's fields
    expect(await operation.locator('table').nth(1).innerText()).toContain('temperature');
    expect(await operation.innerText()).toContain('"temperature": 100');
    expect(await operation.innerText()).toContain('202 Boiling');
  });

  it('shows the reference pages a computed builtin:openapi page generates', async () => {
    await page.goto(`${base}/sites/kettle/api-reference/`);
    await page.locator('nav.sidebar').getByRole('link', { name: 'Kettles' }).click();
    await page.waitForURL(`${base}/sites/kettle/api-reference/kettles`);
    expect(await h1()).toBe('Kettles');
    expect(await page.locator('.openapi section.op h2').innerText()).toMatch(/POST\s*\/kettles\/\{id\}\/boil/);
  });

  it('searches and opens a hit', async () => {
    await page.goto(`${base}/sites/kettle/welcome`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('kettle');
    await page.keyboard.press('Enter');
    await page.waitForURL(/~search\?q=kettle/);
    await page.locator('ol.results a').first().click();
    await page.waitForURL(new RegExp(`${base}/sites/kettle/install`));
    expect(await h1()).toBe('Installation');
  });

  it('switches to the dark theme and keeps it', async () => {
    await page.goto(`${base}/sites/kettle/welcome`);
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await page.locator('#theme-toggle').click();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(13, 17, 23)');
    await page.reload();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    if (process.env.SITE_SCREENSHOT) {
      await page.evaluate("localStorage.setItem('docs-theme', 'light')");
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(`${base}/sites/kettle/install`);
      await page.screenshot({ path: process.env.SITE_SCREENSHOT });
    }
  });

  it('visitor-auth: refused without a token; a valid JWT shows the conditioned section', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'visitor-auth' });
    const key = (await alice.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/publishing/auth/regenerate`)).body.privateKey;
    const apiSection = (await alice.client.get<any>(`/v1/orgs/${org}/sites/${siteId}/sections`)).body.items.find((s: any) => !s.default);
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/sections/${apiSection.id}`, { condition: 'visitor.claims.beta == true' });
    try {
      const refused = await page.goto(`${base}/sites/kettle/welcome`);
      expect(refused?.status()).toBe(401);
      expect(await page.locator('h1').innerText()).toBe('Sign-in required');
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const token = await new SignJWT({ beta: true }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now + 3600).sign(new TextEncoder().encode(key));
      await page.goto(`${base}/sites/kettle/welcome?jwt_token=${token}`);
      expect(page.url()).toBe(`${base}/sites/kettle/welcome`);
      expect(await h1()).toBe('Welcome');
      await page.locator('nav.sections').getByRole('link', { name: 'API reference' }).click();
      expect(await h1()).toBe('Endpoints');
      const cookies = await page.context().cookies();
      expect(cookies.find((c) => c.name.startsWith('docs-visitor-token'))).toMatchObject({ httpOnly: true, path: '/sites/kettle' });
    } finally {
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/sections/${apiSection.id}`, { condition: null });
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
    }
  });

  it('share-link: works with its key, not after revocation', async () => {
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'share-link' });
    try {
      const link = (await alice.client.post<any>(`/v1/orgs/${org}/sites/${siteId}/share-links`, { name: 'Reviewers' })).body;
      expect((await page.goto(`${base}/sites/kettle/welcome`))?.status()).toBe(404);
      await page.goto(link.urls.published);
      expect(await h1()).toBe('Welcome');
      await page.locator('nav.sidebar').getByRole('link', { name: 'Installation' }).click();
      expect(page.url()).toBe(`${link.urls.published}/install`);
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}/share-links/${link.id}`, { active: false });
      expect((await page.reload())?.status()).toBe(404);
    } finally {
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' });
    }
  });
});
