import { Injectable } from '@nestjs/common';
import { SiteRedirectOrm } from '../infrastructure/site-redirect.orm';

/** GitBook's SiteRedirect. */
@Injectable()
export class SiteRedirectPresenter {
  present(row: SiteRedirectOrm) {
    return {
      object: 'site-redirect' as const,
      id: row.id,
      source: row.source,
      draft: row.draft,
      captureWildcard: row.captureWildcard,
      permanent: row.permanent,
      destination: row.destination,
      createdAt: row.createdAt.toISOString(),
      ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}),
    };
  }
}
