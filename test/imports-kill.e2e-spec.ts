import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestApp } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { space } from './spaces.fixtures';
import { spawnWorker, until } from './support/worker-process';

describe('content imports: a worker SIGKILLed mid-run', () => {
  it('is run again by another worker and writes its pages once', async () => {
    // A website whose third page hangs until released: the first worker dies waiting for it.
    let hold = true;
    const waiting: (() => void)[] = [];
    const hits: string[] = [];
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      hits.push(path);
      const answer = () =>
        res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<title>${path}</title><main><h1>Page ${path}</h1><a href="/kb/one">1</a> <a href="/kb/two">2</a> <a href="/kb/three">3</a></main>`);
      if (path === '/kb/two' && hold) waiting.push(answer);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const t = await TestApp.start({ outboundAllowPrivate: true, jobsLockMs: 2000, jobsStalledIntervalMs: 1000 });
    const { child, exited } = spawnWorker(t, { OUTBOUND_ALLOW_PRIVATE: 'true' });
    try {
      const owner = await t.user('Owner');
      const org = await t.organization(owner);
      const spaceId = await space(owner, org);
      const revisions = async () => Number((await t.dataSource.query('SELECT count(*) FROM revisions WHERE space_id = $1', [spaceId]))[0].count);
      const before = await revisions();
      const run = (await owner.client.post<any>(`/v1/org/${org}/imports`, { source: { type: 'website', url: `${base}/kb/` }, target: { space: spaceId } })).body;
      await until('the worker to wait on the third page', async () => waiting.length > 0, 120000);
      expect((await owner.client.get<any>(`/v1/org/${org}/imports/${run.id}`)).body.status).toBe('in-progress');
      child.kill('SIGKILL');
      await exited;
      expect(await revisions()).toBe(before);
      hold = false;
      waiting.forEach((answer) => answer());

      const worker = await TestWorker.start(t);
      try {
        await until('the run to complete', async () => (await owner.client.get<any>(`/v1/org/${org}/imports/${run.id}`)).body.status === 'completed', 60000);
        const done = (await owner.client.get<any>(`/v1/org/${org}/imports/${run.id}`)).body;
        expect(done.pages.map((p: any) => p.sourceURL)).toEqual([`${base}/kb/`, `${base}/kb/one`, `${base}/kb/two`, `${base}/kb/three`]);
        expect(await revisions()).toBe(before + 1);
        const titles = (await owner.client.get<any>(`/v1/spaces/${spaceId}/content`)).body.pages.map((p: any) => p.title);
        expect(titles.filter((title: string) => title.startsWith('Page'))).toEqual(['Page /kb/']);
        // The second worker read the site again from the start.
        expect(hits.filter((path) => path === '/kb/').length).toBe(2);
      } finally {
        await worker.close();
      }
    } finally {
      child.kill('SIGKILL');
      await t.close();
      server.close();
    }
  }, 240000);
});
