// Opens every page of the demo site in GitBook's renderer, with Chromium, and reports what rendered;
// also searches, and saves screenshots in the current directory. Usage: BASE=http://localhost:3300/url/docs.renderer.test node check.cjs
const { chromium } = require('playwright-core');
const BASE = process.env.BASE || 'http://localhost:3300/url/docs.renderer.test';
(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const failed = [];
  page.on('response', (r) => { if (r.status() >= 500) failed.push(`${r.status()} ${r.url()}`); });
  const paths = process.env.STATUS_BLOCK ? ['/', '/introduction', '/quickstart', '/api-reference', '/api-reference/pets'] : ['/', '/quickstart', '/api-reference', '/api-reference/pets'];
  for (const path of paths) {
    const res = await page.goto(BASE + path, { waitUntil: 'load', timeout: 60000 });
    const h1 = await page.locator('h1').first().textContent().catch(() => null);
    const text = await page.locator('main').innerText().catch(() => '');
    console.log(JSON.stringify({ path, status: res.status(), h1, sample: text.replace(/\s+/g, ' ').slice(0, 160) }));
  }
  if (process.env.STATUS_BLOCK) {
    // The example integration's block: rendered by its service through our API; its button round-trips with the block's state.
    await page.goto(BASE + '/', { waitUntil: 'load' }); await page.waitForTimeout(2000);
    const before = await page.locator('main').innerText();
    console.log(JSON.stringify({ block: before.includes('Payments API is operational') || before.includes('Payments API\nis operational') }));
    await page.screenshot({ path: './renderer-integration.png' });
    await page.getByText('Report an incident').click(); await page.waitForTimeout(3000);
    const after = await page.locator('main').innerText();
    console.log(JSON.stringify({ pressed: after.includes('degraded') }));
    await page.screenshot({ path: './renderer-integration-pressed.png' });
  }
  await page.goto(BASE + '/api-reference/pets', { waitUntil: 'load' }); await page.waitForTimeout(3000);
  await page.screenshot({ path: './renderer-api.png' });
  await page.goto(BASE + '/?q=pets', { waitUntil: 'load' }); await page.waitForTimeout(5000);
  console.log(JSON.stringify({ search: (await page.locator('body').innerText()).includes('List and create pets') }));
  await page.screenshot({ path: './renderer-search.png' });
  for (const extra of ['/api-reference/pets.md', '/llms-full.txt', '/llms.txt', '/sitemap.xml', '/robots.txt']) {
    const r = await page.request.get(BASE + extra);
    const body = await r.text();
    console.log(JSON.stringify({ extra, status: r.status(), sample: body.replace(/\s+/g, ' ').slice(0, 200) }));
  }
  console.log('5xx:', failed);
  await browser.close();
})().catch((e) => { console.error(e); process.exit(1); });
