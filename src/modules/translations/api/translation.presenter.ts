import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { TranslationView } from '../application/translations.service';

const seconds = (ms: number) => Math.round(ms / 1000);

/** GitBook's `Translation` (plus `lastError` and `changeRequest`, documented in the README). */
@Injectable()
export class TranslationPresenter {
  constructor(private readonly urls: Urls) {}

  present({ translation: t, canEdit }: TranslationView) {
    return {
      object: 'translation' as const,
      id: t.id,
      status: t.status,
      source: { space: t.sourceSpaceId, language: t.sourceLanguage },
      language: t.language,
      instructions: t.instructions,
      result: { space: t.resultSpaceId, revision: t.resultRevisionId, language: t.language },
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
      stats: {
        runs: t.runs,
        totalWords: t.totalWords,
        totalPages: t.totalPages,
        totalDuration: seconds(t.totalDurationMs),
        latestRunDuration: seconds(t.latestRunDurationMs),
        latestPages: t.latestPages,
        latestWords: t.latestWords,
      },
      ...(t.lastError ? { lastError: t.lastError } : {}),
      ...(t.lastChangeRequestId ? { changeRequest: t.lastChangeRequestId } : {}),
      permissions: { view: true, edit: canEdit },
      urls: { location: this.urls.api(`/orgs/${t.organizationId}/translations/${t.id}`) },
    };
  }
}
