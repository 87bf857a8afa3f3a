import { RevisionContent } from './revision-content';

/** GitBook's revision `type`: how the revision came to be. */
export type RevisionType = 'initial' | 'edits' | 'merge' | 'update' | 'rollback' | 'template' | 'duplicate';

/** An immutable snapshot of a space's content. */
export interface Revision {
  id: string;
  spaceId: string;
  parents: string[];
  type: RevisionType;
  content: RevisionContent;
  createdBy: string | null;
  createdAt: Date;
}

/** The first page of a new, non-empty space. */
export const FIRST_PAGE_TITLE = 'Untitled';
