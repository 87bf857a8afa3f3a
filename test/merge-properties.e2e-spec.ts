import fc from 'fast-check';
import { TestApp, TestUser } from '@app/testing';

/**
 * Merge properties through the HTTP API, on random edits: disjoint edits always merge, in either
 * order, to the same content; overlapping edits always answer 409 and leave both heads untouched.
 */
describe('merge properties (end to end)', () => {
  const PAGES = 5;
  const LINES = 5;
  let t: TestApp;
  let alice: TestUser;
  let org: string;

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    org = await t.organization(alice);
  });
  afterAll(() => t.close());

  const line = (page: number, n: number, tag = 'base') => `Line ${n} of page ${page} (${tag}).`;
  const markdown = (lines: string[]) => lines.join('\n\n') + '\n';
  const baseLines = (page: number) => Array.from({ length: LINES }, (_, n) => line(page, n));

  async function ok<T = any>(res: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** A space whose head has pages 0..PAGES-1 of LINES paragraphs each; returns the space and page ids in order. */
  async function baseSpace(): Promise<{ spaceId: string; pageIds: string[] }> {
    const spaceId = (await ok(alice.client.post(`/v1/orgs/${org}/spaces`, { title: 'Prop', empty: true }), 201)).id;
    const cr = await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Seed' }), 201);
    const changes = Array.from({ length: PAGES }, (_, p) => ({
      operation: 'insert_page',
      title: `Page ${p}`,
      document: { markdown: markdown(baseLines(p)) },
    }));
    await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes }));
    await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
    const pages = (await ok(alice.client.get(`/v1/spaces/${spaceId}/content/pages`))).pages as { id: string; title: string }[];
    return { spaceId, pageIds: pages.map((p) => p.id) };
  }

  /** A change request editing pages: for each page id, the full list of its new lines. */
  async function changeRequest(spaceId: string, edits: Map<string, string[]>): Promise<{ id: string; revision: string }> {
    const cr = await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' }), 201);
    const changes = [...edits].map(([page, lines]) => ({ operation: 'update_page', page, document: { markdown: markdown(lines) } }));
    const edited = await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { changes }));
    return { id: cr.id, revision: edited.changeRequest.revision };
  }

  const bodies = async (spaceId: string) => {
    const pages = (await ok(alice.client.get(`/v1/spaces/${spaceId}/content/pages`))).pages as { id: string; markdown: string }[];
    return new Map(pages.map((p) => [p.id, p.markdown.trim()]));
  };

  // Who edits each page: nobody, A, B, or both on lines far apart (first and last).
  const plan = fc.array(fc.constantFrom('none', 'A', 'B', 'both'), { minLength: PAGES, maxLength: PAGES });

  it('disjoint edits always merge, and give the same content whichever merges first', async () => {
    await fc.assert(
      fc.asyncProperty(plan, fc.boolean(), async (who, aFirst) => {
        const { spaceId, pageIds } = await baseSpace();
        const editsA = new Map<string, string[]>();
        const editsB = new Map<string, string[]>();
        const expected = new Map<string, string>();
        who.forEach((w, p) => {
          const lines = baseLines(p);
          const a = [...lines];
          a[0] = line(p, 0, 'A');
          const b = [...lines];
          b[LINES - 1] = line(p, LINES - 1, 'B');
          if (w === 'A' || w === 'both') editsA.set(pageIds[p], a);
          if (w === 'B' || w === 'both') editsB.set(pageIds[p], b);
          const merged = [...lines];
          if (w === 'A' || w === 'both') merged[0] = a[0];
          if (w === 'B' || w === 'both') merged[LINES - 1] = b[LINES - 1];
          expected.set(pageIds[p], markdown(merged).trim());
        });
        const crA = await changeRequest(spaceId, editsA.size ? editsA : new Map([[pageIds[0], baseLines(0)]]));
        const crB = await changeRequest(spaceId, editsB.size ? editsB : new Map([[pageIds[1], baseLines(1)]]));
        for (const cr of aFirst ? [crA, crB] : [crB, crA]) {
          await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`));
        }
        expect(await bodies(spaceId)).toEqual(expected);
      }),
      { numRuns: 8 },
    );
  });

  it('overlapping edits always answer "conflicts" and leave both heads untouched; the update lists the page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: PAGES - 1 }), fc.integer({ min: 0, max: LINES - 1 }), async (page, n) => {
        const { spaceId, pageIds } = await baseSpace();
        const mine = baseLines(page);
        mine[n] = line(page, n, 'A');
        const theirs = baseLines(page);
        theirs[n] = line(page, n, 'B');
        const crA = await changeRequest(spaceId, new Map([[pageIds[page], mine]]));
        const crB = await changeRequest(spaceId, new Map([[pageIds[page], theirs]]));
        await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${crA.id}/merge`));
        const headBefore = (await ok(alice.client.get(`/v1/spaces/${spaceId}`))).revision;
        const refused = await alice.client.post(`/v1/spaces/${spaceId}/change-requests/${crB.id}/merge`);
        expect(refused.status).toBe(200);
        expect(refused.body).toEqual({ revision: headBefore, result: 'conflicts' });
        expect((await ok(alice.client.get(`/v1/spaces/${spaceId}`))).revision).toBe(headBefore);
        const b = await ok(alice.client.get(`/v1/spaces/${spaceId}/change-requests/${crB.id}`));
        expect(b.revision).toBe(crB.revision);
        expect(b.status).not.toBe('merged');
        expect(b.conflicts).toEqual([]);
        const updated = await ok(alice.client.post(`/v1/spaces/${spaceId}/change-requests/${crB.id}/update`));
        expect(updated.result).toBe('conflicts');
        expect((await ok(alice.client.get(`/v1/spaces/${spaceId}/change-requests/${crB.id}`))).conflicts).toEqual([{ page: pageIds[page], reasons: ['content'] }]);
        expect((await ok(alice.client.get(`/v1/spaces/${spaceId}`))).revision).toBe(headBefore);
      }),
      { numRuns: 6 },
    );
  });
});
