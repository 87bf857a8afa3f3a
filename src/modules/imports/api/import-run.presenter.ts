import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { ImportRun } from '../domain/import-run';

/** GitBook's `ContentImportRun` (current client), which holds the 0.146 one (`id`, `status`, dates, `pages`). */
@Injectable()
export class ImportRunPresenter {
  constructor(private readonly urls: Urls) {}

  present(run: ImportRun) {
    const r = run.toState();
    return {
      object: 'import-run' as const,
      id: r.id,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      ...(r.startedAt ? { startedAt: r.startedAt.toISOString() } : {}),
      ...(r.completedAt ? { completedAt: r.completedAt.toISOString() } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      source: r.source,
      target: r.target,
      ...(r.siteId ? { site: r.siteId } : {}),
      createdBy: r.createdBy,
      // Pages are listed once written, all at once: each is a document page, complete.
      pages: r.pages.map((page) => ({ id: page.id, sourceURL: page.sourceURL, type: 'page' as const, status: 'complete' as const })),
      // Not in GitBook's contract: pages read but not written (too complex to parse), so a partial import says what it left out.
      ...(r.skipped.length ? { skippedPages: r.skipped } : {}),
      urls: { location: this.urls.api(`/org/${r.organizationId}/imports/${r.id}`) },
    };
  }
}
