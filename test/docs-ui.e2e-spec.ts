import { AddressInfo } from 'node:net';
import { chromium, Browser } from 'playwright-core';
import { TestApp } from '@app/testing';

/** `/docs` in a real headless Chromium: Swagger UI lists the operations and opens one. */
describe('API docs (/docs) in the browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 60000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it.each(['/docs', '/docs/'])('%s lists the operations and opens getSubdomain (whose description once blanked the page)', async (path) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}${path}`);
    const operation = page.locator('#operations-subdomains-getSubdomain, [id$="-getSubdomain"]').first();
    await operation.waitFor({ timeout: 20000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(100);
    await operation.locator('.opblock-summary').first().click();
    await page.getByText('answers 400').first().waitFor({ timeout: 10000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 60000);
});
