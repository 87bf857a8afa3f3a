import { TestApp } from '@app/testing';
import { Transactions } from '../src/database/transactions';
import { ContentStore } from '../src/modules/content/application/content-store.service';
import { Revision } from '../src/modules/content/domain/revision';
import { RevisionFile } from '../src/modules/content/domain/revision-content';
import { ContentIndexer } from '../src/modules/search-index/application/content-indexer.service';
import { SpacesService } from '../src/modules/spaces/application/spaces.service';
import { PageSpec, buildContent } from './content.fixtures';

export async function spaceHead(t: TestApp, spaceId: string): Promise<string> {
  return (await t.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [spaceId]))[0].revision_id as string;
}

/**
 * Commits the pages as a new revision, makes it current and tells the indexer, in one
 * transaction: what a merge does.
 */
export async function publish(t: TestApp, spaceId: string, pages: PageSpec[], files: RevisionFile[] = []): Promise<Revision> {
  const store = t.get<ContentStore>(ContentStore);
  const spaces = t.get<SpacesService>(SpacesService);
  const indexer = t.get<ContentIndexer>(ContentIndexer);
  const head = await spaceHead(t, spaceId);
  const { content, documents } = buildContent(pages, files);
  return t.get<Transactions>(Transactions).run(async (tx) => {
    const revision = await store.commit({ spaceId, parents: [head], type: 'merge', content, documents, createdBy: null }, tx);
    if (!(await spaces.advanceRevision(spaceId, head, revision.id, tx))) throw new Error('space head moved');
    await indexer.revisionBecameCurrent(spaceId, head, revision.id, tx);
    return revision;
  });
}

/** Commits a revision on top of a change request's head and moves the head (as an edit would). */
export async function editChangeRequest(t: TestApp, spaceId: string, changeRequestId: string, pages: PageSpec[], files: RevisionFile[] = []): Promise<Revision> {
  const store = t.get<ContentStore>(ContentStore);
  const [row] = await t.dataSource.query('SELECT revision FROM change_requests WHERE id = $1', [changeRequestId]);
  const { content, documents } = buildContent(pages, files);
  const revision = await store.commit({ spaceId, parents: [row.revision], type: 'edits', content, documents, createdBy: null });
  await t.dataSource.query('UPDATE change_requests SET revision = $2 WHERE id = $1', [changeRequestId, revision.id]);
  return revision;
}
