import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { GlossaryEntryOrm } from '../infrastructure/glossary-entry.orm';

/** GitBook's `GlossaryEntry`. */
@Injectable()
export class GlossaryPresenter {
  constructor(private readonly urls: Urls) {}

  present(entry: GlossaryEntryOrm) {
    return {
      object: 'glossary-entry' as const,
      id: entry.id,
      translations: entry.translations,
      createdAt: entry.createdAt.toISOString(),
      updatedAt: entry.updatedAt.toISOString(),
      urls: { location: this.urls.api(`/orgs/${entry.organizationId}/translations-glossary/${entry.id}`) },
    };
  }
}
