import { TestApp, TestUser } from '@app/testing';
import { newId } from '@app/common';
import { RevisionLinkIndexer } from '../src/modules/content/infrastructure/link-indexer';
import { LinksRepository } from '../src/modules/content/infrastructure/links.repository';
import { PageSpec } from './content.fixtures';
import { publish } from './search.fixtures';
import { space } from './spaces.fixtures';

/**
 * A space whose links outnumber what a commit copies (RevisionLinkIndexer.COPY_AT_COMMIT_AT_MOST):
 * its new revisions are committed without link rows, and the first link read writes them from
 * the nearest revision whose rows are written.
 */
describe('Link rows written on demand for spaces with many links (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let spaceId: string;
  const MANY = newId();
  const P = newId();
  const Q = newId();
  const urls = RevisionLinkIndexer.COPY_AT_COMMIT_AT_MOST + 1;
  const manyLinks = Array.from({ length: urls }, (_, i) => `[l${i}](https://example.com/${i})`).join(' ');

  const pages = (options: { withQ: boolean; pBody?: string }): PageSpec[] => [
    { id: MANY, title: 'Many', slug: 'many', body: manyLinks },
    { id: P, title: 'P', slug: 'p', body: options.pBody ?? `See [Q](/pages/${Q}).` },
    ...(options.withQ ? [{ id: Q, title: 'Q', slug: 'q', body: 'Plain.' }] : []),
  ];
  const rowsOf = async (revisionId: string) =>
    (await t.dataSource.query('SELECT count(*)::int AS n FROM revision_links WHERE revision_id = $1', [revisionId]))[0].n as number;
  const stateOf = async (revisionId: string) =>
    (await t.dataSource.query('SELECT indexed, base_revision_id FROM revision_link_index WHERE revision_id = $1', [revisionId]))[0];

  beforeAll(async () => {
    t = await TestApp.start();
    alice = await t.user('Alice');
    const orgId = await t.organization(alice, []);
    spaceId = await space(alice, orgId, { title: 'Many links' });
  });

  afterAll(() => t.close());

  it('writes a large base\'s successor without copying its links, and the first read writes them with the statuses of its own tree', async () => {
    const first = await publish(t, spaceId, pages({ withQ: true }));
    expect(await stateOf(first.id)).toMatchObject({ indexed: true });
    expect(await rowsOf(first.id)).toBe(urls + 1);

    const copy = jest.spyOn(LinksRepository.prototype, 'copy');
    const second = await publish(t, spaceId, pages({ withQ: false }));
    expect(copy).not.toHaveBeenCalled();
    expect(await stateOf(second.id)).toEqual({ indexed: false, base_revision_id: first.id });
    expect(await rowsOf(second.id)).toBe(0);

    const res = await alice.client.get(`/v1/spaces/${spaceId}/links`, { status: 'broken' });
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({ total: urls + 1, broken: { total: 1 } });
    expect(res.body.items.map((item: any) => item.targetReference)).toEqual([{ kind: 'url', url: `/pages/${Q}` }]);
    expect(copy).toHaveBeenCalledTimes(1);
    copy.mockRestore();
    expect(await stateOf(second.id)).toMatchObject({ indexed: true });
    expect(await rowsOf(second.id)).toBe(urls + 1);
  });

  it('catches up over several pending revisions from the nearest written one, once, however many reads race', async () => {
    const written = (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id;
    await publish(t, spaceId, pages({ withQ: true, pBody: 'No links here.' }));
    const last = await publish(t, spaceId, pages({ withQ: true, pBody: `Back to [Q](/pages/${Q}) and [Many](/pages/${MANY}).` }));
    expect(await stateOf(last.id)).toMatchObject({ indexed: false });

    const copy = jest.spyOn(LinksRepository.prototype, 'copy');
    const reads = await Promise.all(Array.from({ length: 4 }, () => alice.client.get(`/v1/spaces/${spaceId}/content/page/${Q}/backlinks`)));
    for (const res of reads) {
      expect(res.status).toBe(200);
      expect(res.body.items.map((item: any) => item.page.id)).toEqual([P]);
    }
    // Written once, from the current revision of the first test (the one in between stays pending).
    expect(copy.mock.calls.map((call) => [call[0], call[1]])).toEqual([[written, last.id]]);
    copy.mockRestore();
    expect(await stateOf(last.id)).toMatchObject({ indexed: true });
    expect(await rowsOf(last.id)).toBe(urls + 2);
    const links = await alice.client.get(`/v1/spaces/${spaceId}/links`, { status: 'broken' });
    expect(links.body.stats).toMatchObject({ total: urls + 2, broken: { total: 0 } });
  });
});
