import { Injectable } from '@nestjs/common';
import { Revision } from '../domain/revision';
import { RevisionFile } from '../domain/revision-content';
import { SemanticChange, semanticChanges } from '../domain/semantic-changes';
import { ContentStore } from './content-store.service';
import { FilesService } from './files.service';

/** GitBook's `RevisionSemanticChanges` without `mergedFrom` (the caller adds it for merge revisions). */
export interface SemanticChangesObject {
  changes: Array<Record<string, unknown>>;
  more?: number;
}

/** `limit` of the changes reads when none is given (GitBook's default). */
export const DEFAULT_CHANGES_LIMIT = 10;

/**
 * The semantic changes of a revision against its first parent (`.../revisions/{id}/changes`),
 * or between any two revisions of a space (a change request against its base). A revision
 * without parents (a space's first) is compared with nothing: all of it is created. At most
 * `limit` changes are returned, in tree order; `more` says how many were left out.
 */
@Injectable()
export class SemanticChangesReader {
  constructor(
    private readonly store: ContentStore,
    private readonly files: FilesService,
  ) {}

  async ofRevision(revision: Revision, limit = DEFAULT_CHANGES_LIMIT): Promise<SemanticChangesObject> {
    const parentId = revision.parents[0];
    const parent = parentId ? await this.store.getInSpace(revision.spaceId, parentId) : null;
    return this.between(parent, revision, limit);
  }

  between(before: Revision | null, after: Revision, limit = DEFAULT_CHANGES_LIMIT): SemanticChangesObject {
    const all = semanticChanges(before?.content ?? null, after.content);
    const shown = all.slice(0, limit).map((change) => this.present(change));
    return { changes: shown, ...(all.length > shown.length ? { more: all.length - shown.length } : {}) };
  }

  private present(change: SemanticChange): Record<string, unknown> {
    if ('file' in change) return { ...change, file: this.file(change.file) };
    if ('reusableContent' in change) {
      const { id, title, documentHash } = change.reusableContent;
      return { ...change, reusableContent: { id, title, document: documentHash } };
    }
    return { ...change };
  }

  /** GitBook's `ChangedRevisionFile`. */
  private file(file: RevisionFile) {
    return { id: file.id, name: file.name, contentType: file.contentType, downloadURL: this.files.downloadUrl(file) };
  }
}
