import { InvalidError } from '@app/common';
import type { RevisionContent, RevisionFile } from '../../../content/domain/revision-content';
import type { ContentChange } from './changes';

// What applyChanges takes and answers.

/** An invalid change: its message names it (`changes[3]: page "x" not found`). */
export class ChangeError extends InvalidError {}

export interface ApplyChangesInput {
  content: RevisionContent;
  /** Bodies by hash: at least those of the pages named by `revert_page` with `block`, now and in their target revisions. */
  documents: ReadonlyMap<string, string>;
  changes: ContentChange[];
  /** The revision `revert_page` reverts to by default (the change request's base). */
  baseRevisionId: string;
  /** Contents of the revisions `revert_page` may revert to, by id; a missing one is "not found". */
  revisions: ReadonlyMap<string, RevisionContent>;
  /** For each `insert_files` change (by index), its files in order, ids assigned. */
  files: ReadonlyMap<number, RevisionFile[]>;
  /** ISO date of the edit. */
  now: string;
  newId: () => string;
}

export type PageOutcome = { kind: 'created'; pageId: string; ref?: string } | { kind: 'updated'; pageId: string } | { kind: 'deleted'; pageId: string };

export interface ApplyChangesResult {
  content: RevisionContent;
  /** Bodies the new content references that may not be stored yet. */
  documents: Map<string, string>;
  /** Each affected page once, in the order the batch first touched it. */
  pages: PageOutcome[];
  insertedFiles: RevisionFile[];
}
