import { TestApp } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { spawnWorker, until } from './support/worker-process';

describe('conversation analysis: a worker SIGKILLed mid-batch', () => {
  it('writes nothing of the interrupted batch; the next worker analyses every conversation once', async () => {
    const fake = await startFakeAiProvider();
    fake.answerWith((body) => JSON.stringify({ issues: [{ title: `Issue from ${/Subject: (\S+ \S+)/.exec(body.messages[1].content)?.[1]}`, summary: 'x' }] }));
    const t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiModel: 'fake', aiMaxRetries: 0, jobsLockMs: 2000, jobsStalledIntervalMs: 1000 });
    const { child, exited } = spawnWorker(t, { OUTBOUND_ALLOW_PRIVATE: 'true', AI_API_URL: fake.url, AI_MODEL: 'fake', AI_MAX_RETRIES: '0' });
    try {
      const owner = await t.user('Owner');
      const org = await t.organization(owner);
      const count = async (sql: string) => Number((await t.dataSource.query(sql))[0].count);
      fake.holdAfter(3); // the model answers 3 conversations, then the worker dies waiting for the 4th
      const batch = Array.from({ length: 6 }, (_, i) => ({ id: `k${i}`, subject: `Ticket k${i}`, parts: [{ type: 'message', role: 'user', body: 'How does it work?' }] }));
      expect((await owner.client.post(`/v1/orgs/${org}/conversations`, batch)).status).toBe(204);
      await until('the fourth model call', async () => fake.requests.length >= 4, 120000);
      child.kill('SIGKILL');
      await exited;
      expect(await count('SELECT count(*) FROM conversation_issues')).toBe(0);
      expect(await count('SELECT count(*) FROM issues_clusters')).toBe(0);
      expect(await count('SELECT count(*) FROM conversations WHERE processed_at IS NULL')).toBe(6);
      fake.release();

      const worker = await TestWorker.start(t);
      try {
        await until('the analysis', async () => (await count('SELECT count(*) FROM conversations WHERE processed_at IS NULL')) === 0, 60000);
        expect(await count('SELECT count(*) FROM conversation_issues')).toBe(6);
        expect(await count('SELECT count(DISTINCT conversation_id) FROM conversation_issues')).toBe(6);
        const [cluster] = await t.dataSource.query('SELECT sum(issues)::int AS issues FROM issues_clusters');
        expect(cluster.issues).toBe(6);
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
