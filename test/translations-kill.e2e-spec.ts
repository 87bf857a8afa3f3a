import { TestApp } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { commitContent } from './content.fixtures';
import { space } from './spaces.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { spawnWorker, until } from './support/worker-process';

const PAGES = 6;

describe('translations: a worker SIGKILLed mid-run', () => {
  it('resumes without translating finished pages twice, and writes one revision', async () => {
    const fake = await startFakeAiProvider();
    const t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiModel: 'fake-model', aiMaxConcurrency: 1, jobsLockMs: 2000, jobsStalledIntervalMs: 1000 });
    const { child, exited } = spawnWorker(t, { OUTBOUND_ALLOW_PRIVATE: 'true', AI_API_URL: fake.url, AI_MODEL: 'fake-model', AI_MAX_CONCURRENCY: '1' });
    try {
      const owner = await t.user('Owner');
      const org = await t.organization(owner);
      const sourceId = await space(owner, org);
      await commitContent(t, sourceId, Array.from({ length: PAGES }, (_, i) => ({ id: `p${i}`, title: `Page ${i}`, slug: `page-${i}`, body: `Text of page ${i}.\n` })));
      const created = (await owner.client.post<any>(`/v1/orgs/${org}/translations`, { language: 'es', source: { space: sourceId, language: 'en' } })).body;
      const revisions = async () => Number((await t.dataSource.query('SELECT count(*) FROM revisions WHERE space_id = $1', [created.result.space]))[0].count);
      const before = await revisions();

      fake.holdAfter(3); // pages 0-2 are answered, page 3 waits: the worker dies while translating it
      expect((await owner.client.post(`/v1/orgs/${org}/translations/${created.id}/run`)).status).toBe(204);
      await until('the fourth model call', async () => fake.requests.length >= 4, 120000);
      child.kill('SIGKILL');
      await exited;
      expect(await revisions()).toBe(before);
      expect(Number((await t.dataSource.query('SELECT count(*) FROM translated_pages WHERE translation_id = $1', [created.id]))[0].count)).toBe(3);
      fake.release();

      const worker = await TestWorker.start(t);
      try {
        const done = await until(
          'the run to finish',
          async () => {
            const [row] = await t.dataSource.query('SELECT status, completed_generation, generation FROM translations WHERE id = $1', [created.id]);
            return row.status === 'completed' && row.completed_generation === row.generation;
          },
          60000,
        );
        expect(done).toBe(true);
        // 3 answered before the kill, the interrupted page again, then the last 2: never a finished page twice
        const sentPages = fake.requests.map((r) => JSON.parse(r.body.messages[1].content).title);
        expect(sentPages).toEqual(['Page 0', 'Page 1', 'Page 2', 'Page 3', 'Page 3', 'Page 4', 'Page 5']);
        expect(await revisions()).toBe(before + 1);
        const translation = (await owner.client.get<any>(`/v1/orgs/${org}/translations/${created.id}`)).body;
        expect(translation.stats).toMatchObject({ runs: 1, totalPages: PAGES });
      } finally {
        await worker.close();
      }
    } finally {
      child.kill('SIGKILL');
      await t.close();
      await fake.close();
    }
  }, 240000);
});
