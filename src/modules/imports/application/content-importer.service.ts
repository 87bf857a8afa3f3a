import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, CLOCK, Clock, ConflictError, DomainError, InvalidError, NotFoundError } from '@app/common';
import { GuardedFetcher } from '../../../core/outbound/guarded-fetcher';
import { Transactions, Tx } from '../../../database/transactions';
import { ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { applyChanges } from '../../change-requests/authoring/domain/apply-changes';
import { ContentStore } from '../../content/application/content-store.service';
import { RevisionContent } from '../../content/domain/revision-content';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { ContentIndexer } from '../../search-index/application/content-indexer.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { CrawlScope } from '../domain/crawl-scope';
import { readHtmlPage } from '../domain/html-page';
import { CrawledPage, importChanges, importedPageId, unparsable, writeOrder } from '../domain/import-changes';
import { ImportRun, ImportRunState, SkippedPage } from '../domain/import-run';
import { ImportRunsRepository } from '../infrastructure/import-runs.repository';
import { ImportContent } from './imports.jobs';

/** One page's bytes at most, and how long it may take to arrive. */
const PAGE_LIMITS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };
/** How often (in pages read) the crawl looks whether the run was cancelled. */
const CANCEL_CHECK_EVERY = 5;

export type ImportOutcome = 'completed' | 'failed' | 'cancelled' | 'skipped';

/**
 * Runs one import (the `import-content` job): reads the website through the guarded fetcher,
 * following links on the same origin under the start address's directory, turns each page's
 * content into markdown, and writes the pages as one revision: of the space (made current by
 * compare-and-set, the run completed in the same transaction) or of the change request. Nothing
 * is written until every page is read, so a cancelled or failed run leaves the content as it was.
 * Idempotent: page ids derive from the run, and a run whose first page is already in the target
 * is completed without writing again.
 */
@Injectable()
export class ContentImporter {
  private readonly logger = new Logger(ContentImporter.name);

  constructor(
    private readonly runs: ImportRunsRepository,
    private readonly fetcher: GuardedFetcher,
    private readonly identity: IdentityService,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly content: ContentStore,
    private readonly indexer: ContentIndexer,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run(runId: string, attempt: number, signal: AbortSignal): Promise<ImportOutcome> {
    const begun = await this.transactions.run(async (tx) => {
      const run = await this.runs.lock(runId, tx);
      if (!run || run.finished) return null;
      run.begin(this.clock.now());
      await this.runs.save(run, tx);
      return run.toState();
    });
    if (!begun) return 'skipped';
    try {
      const user = await this.identity.getUser(begun.createdBy);
      const crawled = await this.crawl(begun, signal);
      if (!crawled) return 'cancelled';
      return await this.write(begun, user, crawled.pages, crawled.skipped);
    } catch (error) {
      const permanent = error instanceof DomainError && !(error instanceof ConflictError);
      if (!permanent && attempt < ImportContent.attempts) throw error;
      this.logger.warn({ runId, err: error }, 'content import failed');
      const reason = permanent ? (error as Error).message : 'The import stopped on an unexpected error; start it again';
      return (await this.finish(runId, (run) => run.fail(this.clock.now(), reason))) ? 'failed' : 'cancelled';
    }
  }

  /** Every page in scope, breadth first from the start address; null when the run was cancelled meanwhile. */
  private async crawl(run: ImportRunState, signal: AbortSignal): Promise<{ pages: CrawledPage[]; skipped: SkippedPage[] } | null> {
    const start = run.source.url;
    const scope = new CrawlScope(start);
    const first = scope.page(start, start) ?? { url: start, key: start };
    const queue = [first];
    const seen = new Set([first.key]);
    const pages: CrawledPage[] = [];
    const skipped: SkippedPage[] = [];
    // Breadth first from the start address, so a capped import keeps the pages nearest to it.
    while (queue.length > 0 && pages.length + skipped.length < this.config.importMaxPages) {
      if (signal.aborted) throw new InvalidError(`source.url: reading the website took longer than ${ImportContent.timeoutMs / 60000} minutes`);
      if (pages.length % CANCEL_CHECK_EVERY === 0 && (await this.cancelled(run.id))) return null;
      const target = queue.shift()!;
      const html = await this.fetchPage(target.url, target === first);
      if (html === null) continue;
      const page = readHtmlPage(html);
      // A page too complex to parse is skipped and reported; its links are still followed.
      const problem = unparsable(page.markdown);
      if (problem) skipped.push({ sourceURL: target.url, reason: problem });
      else pages.push({ ...page, url: target.url, key: target.key });
      for (const href of page.links) {
        const next = scope.page(href, target.url);
        if (next && !seen.has(next.key)) {
          seen.add(next.key);
          queue.push(next);
        }
      }
    }
    return (await this.cancelled(run.id)) ? null : { pages, skipped };
  }

  /** The page's HTML; null for a page that cannot be read (skipped), but the start address must be readable. */
  private async fetchPage(url: string, isStart: boolean): Promise<string | null> {
    try {
      const file = await this.fetcher.fetch(url, PAGE_LIMITS);
      if (file.contentType && file.contentType !== 'text/html' && file.contentType !== 'application/xhtml+xml') {
        if (isStart) throw new InvalidError(`source.url: not an HTML page (${file.contentType})`);
        return null;
      }
      return file.bytes.toString('utf8');
    } catch (error) {
      if (!isStart) return null;
      if (error instanceof InvalidError && error.message.startsWith('source.url')) throw error;
      throw new InvalidError(`source.url: could not be read: ${error instanceof DomainError ? error.message : 'the request failed'}`);
    }
  }

  private async write(run: ImportRunState, user: User, crawled: CrawledPage[], skipped: SkippedPage[]): Promise<ImportOutcome> {
    const pages = writeOrder(crawled);
    const ids = pages.map((_, i) => importedPageId(run.id, i));
    const changes = importChanges(pages, ids, new CrawlScope(run.source.url), run.target.page);
    const imported = pages.map((page, i) => ({ id: ids[i], sourceURL: page.url }));
    let generated = 0;
    const apply = (head: { id: string; content: RevisionContent }) =>
      applyChanges({
        content: head.content,
        documents: new Map(),
        changes,
        baseRevisionId: head.id,
        revisions: new Map(),
        files: new Map(),
        now: this.clock.now().toISOString(),
        newId: () => ids[generated++],
      });
    const alreadyWritten = (content: RevisionContent) => ids.length > 0 && containsPage(content.pages, ids[0]);

    if (run.target.changeRequest) {
      const { changeRequest } = await this.changeRequests.resolve(user, run.target.space, run.target.changeRequest);
      const head = await this.content.getInSpace(run.target.space, changeRequest.revision);
      if (!head) throw NotFoundError.of('Revision', changeRequest.revision);
      if (!alreadyWritten(head.content) && pages.length > 0) {
        if (await this.cancelled(run.id)) return 'cancelled';
        await this.changeRequests.commitEdit(user, run.target.space, run.target.changeRequest, async (latest) => {
          generated = 0;
          const applied = apply(latest);
          return { content: applied.content, documents: applied.documents };
        });
      }
      return (await this.finish(run.id, (r) => r.complete(this.clock.now(), imported, skipped))) ? 'completed' : 'cancelled';
    }

    const space = await this.spaces.get(user, run.target.space);
    this.changeRequests.assertCanEdit(space);
    const head = await this.content.getInSpace(run.target.space, space.space.revisionId);
    if (!head) throw NotFoundError.of('Revision', space.space.revisionId);
    const applied = alreadyWritten(head.content) || pages.length === 0 ? null : apply(head);
    // The revision and the run's completion commit together: a cancel either comes first and nothing is written, or it is too late.
    const done = await this.finish(run.id, (r) => r.complete(this.clock.now(), imported, skipped), async (tx) => {
      if (!applied) return;
      const revision = await this.content.commit(
        { spaceId: run.target.space, parents: [head.id], type: 'edits', content: applied.content, documents: applied.documents, createdBy: user.id },
        tx,
      );
      if (!(await this.spaces.advanceRevision(run.target.space, head.id, revision.id, tx))) {
        throw new ConflictError('The space content changed while the import was being written; retrying');
      }
      await this.indexer.revisionBecameCurrent(run.target.space, head.id, revision.id, tx);
    });
    return done ? 'completed' : 'cancelled';
  }

  private async cancelled(runId: string): Promise<boolean> {
    return (await this.runs.findById(runId))?.toState().status === 'cancelled';
  }

  /**
   * Applies a final transition, after `alongside` (writes that must commit with it), unless the run
   * was cancelled meanwhile: false then, and nothing is written.
   */
  private finish(runId: string, transition: (run: ImportRun) => void, alongside?: (tx: Tx) => Promise<void>): Promise<boolean> {
    return this.transactions.run(async (tx) => {
      const run = await this.runs.lock(runId, tx);
      if (!run?.running) return false;
      await alongside?.(tx);
      transition(run);
      await this.runs.save(run, tx);
      return true;
    });
  }
}

function containsPage(pages: RevisionContent['pages'], id: string): boolean {
  return pages.some((page) => page.id === id || ('pages' in page && Array.isArray(page.pages) && containsPage(page.pages as RevisionContent['pages'], id)));
}

