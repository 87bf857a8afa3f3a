import type { Tx } from '../../../database/transactions';
import type { ContentPosition } from '../../access/domain/content-position';
import type { MemberRole } from '../../access/domain/roles';
import type { RevisionContent } from '../../content/domain/revision-content';
import type { Space } from '../domain/space';
import type { SpaceEditMode, TranslationLanguage } from '../domain/space-settings';

// What the spaces service takes and answers.

/** A space as one caller sees it: the presenter derives `permissions` from `role`. */
export interface SpaceView {
  space: Space;
  role: MemberRole | null;
}

/** A space a member can access, with their effective role on it. */
export interface MemberSpaceView {
  permission: MemberRole;
  view: SpaceView;
}

export interface CreateSpaceInput {
  title?: string;
  emoji?: string;
  parent?: string;
  language?: TranslationLanguage;
  editMode?: SpaceEditMode;
  /** Start with no page at all (otherwise one empty page). */
  empty?: boolean;
  /** GitBook's `template`: see SpaceTemplateContent (unknown ids give the default empty page). */
  template?: { id: string; params?: Record<string, unknown> };
  /** For other modules creating a space with its first content (a revision of type `template`). */
  initialContent?: { content: RevisionContent; documents: Map<string, string> };
}

export interface MoveSpaceInput {
  /** undefined keeps the current parent; null is the organization root. */
  parent?: string | null;
  position?: ContentPosition;
}

/** Which spaces changed in a way readers of a published site see (content, title, deletion, leaving). */
export type SpaceChange = { spaceIds: string[] } | { organizationId: string };
export type SpaceChangeListener = (change: SpaceChange, tx?: Tx) => Promise<void>;
