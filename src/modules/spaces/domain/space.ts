import { ConflictError, DAY_MS, InvalidError, LockedError, NotFoundError, PreconditionFailedError } from '@app/common';
import { SpaceNode } from '../../access/domain/access-context';
import { DefaultLevel, MemberRole, atLeast } from '../../access/domain/roles';
import { SpaceMergeRules, mergeRuleUserIds } from '../../organizations/domain/merge-rules';
import { ContentVisibility, SPACE_TITLE_MAX, SpaceEditMode, TranslationLanguage } from './space-settings';

export interface SpaceState {
  id: string;
  organizationId: string;
  /** The enclosing collection; null at the organization root. */
  parentId: string | null;
  title: string;
  /** '' when the space has none. */
  emoji: string;
  visibility: ContentVisibility;
  editMode: SpaceEditMode;
  mergeRules: SpaceMergeRules;
  language: TranslationLanguage | null;
  defaultLevel: DefaultLevel;
  revisionId: string;
  /** Sort key among the siblings (spaces and collections) under the same parent. */
  position: number;
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** The repository the space syncs with, as Git Sync last recorded it; null when it has none. */
  gitSync: SpaceGitSync | null;
  /** Optimistic concurrency token: a write only succeeds against the version it read. */
  version: number;
}

/** GitBook's `GitSyncState` as shown on a space (never credentials: the URL is stored without them). */
export interface SpaceGitSync {
  repoName?: string;
  installationProvider?: string;
  url?: string;
  updatedAt: string;
}

/**
 * GitBook's `GitSyncState` fields for a space's link to its repository. The link is the space's
 * only installation, so it is named by the space; it exists, so it is active. The provider is
 * shown when the host is one the contract names (GitHub, GitLab), and left out otherwise.
 */
export function gitSyncInstallation(spaceId: string, summary: SpaceGitSync): SpaceGitSync & { installationId: string; installationStatus: 'active' } {
  return { installationId: spaceId, installationStatus: 'active', ...summary };
}

export interface NewSpace {
  id: string;
  organizationId: string;
  parentId: string | null;
  title?: string;
  emoji?: string;
  language?: TranslationLanguage;
  editMode?: SpaceEditMode;
  revisionId: string;
  position: number;
  createdBy: string;
  now: Date;
}

/** What PATCH /spaces/{id} may change. `emoji: null` removes the emoji. */
export interface SpacePatch {
  title?: string;
  emoji?: string | null;
  language?: TranslationLanguage;
  editMode?: SpaceEditMode;
  defaultLevel?: DefaultLevel;
  mergeRules?: SpaceMergeRules;
}

export const DEFAULT_SPACE_TITLE = 'Untitled';
const COPY_SUFFIX = ' (copy)';

/** Settings that decide who may do what (access, review, locking) are for space admins. */
const ADMIN_SETTINGS: (keyof SpacePatch)[] = ['editMode', 'defaultLevel', 'mergeRules'];
/** Presentation settings (title, emoji, language) only need the `edit` role. */
const EDIT_SETTINGS: (keyof SpacePatch)[] = ['title', 'emoji', 'language'];

export function normalizeSpaceTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 1 || trimmed.length > SPACE_TITLE_MAX) {
    throw new InvalidError(`title: must be 1 to ${SPACE_TITLE_MAX} characters`);
  }
  return trimmed;
}

/**
 * A space: one body of documentation with its own settings, placed at the root of an
 * organization or inside a collection. Deleting only marks it; within the retention window
 * it can be restored, after that it is purged for good.
 */
/** What every new space (created or duplicated) starts with: its own revision, place, counters and clock. */
function freshLife(input: { revisionId: string; position: number; createdBy: string | null; now: Date }) {
  return {
    revisionId: input.revisionId,
    position: input.position,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    createdBy: input.createdBy,
    createdAt: input.now,
    updatedAt: input.now,
    deletedAt: null,
    gitSync: null,
    version: 1,
  };
}

export class Space {
  /** `stored`: the state as it was read (null for a new space). Changes replace `state`, never edit it. */
  private constructor(
    private state: SpaceState,
    private readonly stored: SpaceState | null = null,
  ) {}

  static create(input: NewSpace): Space {
    return new Space({
      id: input.id,
      organizationId: input.organizationId,
      parentId: input.parentId,
      title: normalizeSpaceTitle(input.title ?? DEFAULT_SPACE_TITLE),
      emoji: input.emoji ?? '',
      visibility: 'private',
      editMode: input.editMode ?? 'live',
      mergeRules: { type: 'inherit' },
      language: input.language ?? null,
      defaultLevel: 'inherit',
      ...freshLife(input),
    });
  }

  static fromState(state: SpaceState): Space {
    const stored = { ...state };
    return new Space({ ...stored }, stored);
  }

  /** The fields changed since the space was read (every field of a new one). */
  changedFields(): Array<keyof SpaceState> {
    const fields = Object.keys(this.state) as Array<keyof SpaceState>;
    const stored = this.stored;
    return stored ? fields.filter((field) => this.state[field] !== stored[field]) : fields;
  }

  /** Deleted spaces older than this instant are past their retention window. */
  static purgeCutoff(now: Date, retentionDays: number): Date {
    return new Date(now.getTime() - retentionDays * DAY_MS);
  }

  /** The role PATCH needs for these changes: `admin` for access and workflow settings, `edit` otherwise. */
  static roleRequiredFor(patch: SpacePatch): MemberRole {
    return ADMIN_SETTINGS.some((key) => patch[key] !== undefined) ? 'admin' : 'edit';
  }

  toState(): SpaceState {
    return { ...this.state };
  }

  get id(): string {
    return this.state.id;
  }
  get organizationId(): string {
    return this.state.organizationId;
  }
  get parentId(): string | null {
    return this.state.parentId;
  }
  get title(): string {
    return this.state.title;
  }
  get editMode(): SpaceEditMode {
    return this.state.editMode;
  }
  get mergeRules(): SpaceMergeRules {
    return this.state.mergeRules;
  }
  /** The current revision of the space's content. */
  get revisionId(): string {
    return this.state.revisionId;
  }

  get position(): number {
    return this.state.position;
  }
  get version(): number {
    return this.state.version;
  }
  get deletedAt(): Date | null {
    return this.state.deletedAt;
  }
  get isDeleted(): boolean {
    return this.state.deletedAt !== null;
  }

  /** What the access model needs to compute a caller's role on this space. */
  get node(): SpaceNode {
    return { id: this.state.id, parentId: this.state.parentId, defaultLevel: this.state.defaultLevel };
  }

  /**
   * Applies a PATCH by a caller already holding `Space.roleRequiredFor(patch)`. A `locked`
   * space refuses title, emoji and language changes from non-admins (423); admins may always
   * change settings, which is how they unlock it (`editMode: live`).
   */
  update(patch: SpacePatch, role: MemberRole, now: Date): void {
    const touchesContent = EDIT_SETTINGS.some((key) => patch[key] !== undefined);
    if (this.state.editMode === 'locked' && touchesContent && !atLeast(role, 'admin')) {
      throw new LockedError('This space is locked; only its admins can change it');
    }
    const next = { ...this.state };
    if (patch.title !== undefined) next.title = normalizeSpaceTitle(patch.title);
    if (patch.emoji !== undefined) next.emoji = patch.emoji ?? '';
    if (patch.language !== undefined) next.language = patch.language;
    if (patch.editMode !== undefined) next.editMode = patch.editMode;
    if (patch.defaultLevel !== undefined) next.defaultLevel = patch.defaultLevel;
    if (patch.mergeRules !== undefined) next.mergeRules = patch.mergeRules;
    next.updatedAt = now;
    this.state = next;
  }

  /** Marks the space deleted; it stays restorable for the retention window. */
  delete(now: Date): void {
    if (this.isDeleted) throw new ConflictError(`Space "${this.id}" is already deleted`);
    this.state = { ...this.state, deletedAt: now, updatedAt: now };
  }

  /** Whether a deleted space is still within its retention window at `now` (the boundary included). */
  isRestorable(now: Date, retentionDays: number): boolean {
    return this.state.deletedAt !== null && this.state.deletedAt.getTime() >= Space.purgeCutoff(now, retentionDays).getTime();
  }

  /**
   * Undoes a deletion made at most `retentionDays` ago. A space that is not deleted is a 409.
   * A space past the window is treated as purged (404), whether or not the purge job has
   * removed its row yet, so clients see the same answer either way.
   */
  restore(now: Date, retentionDays: number): void {
    if (!this.isDeleted) throw new ConflictError(`Space "${this.id}" is not deleted`);
    if (!this.isRestorable(now, retentionDays)) {
      throw new NotFoundError(`Space "${this.id}" was deleted more than ${retentionDays} days ago and can no longer be restored`);
    }
    this.state = { ...this.state, deletedAt: null, updatedAt: now };
  }

  moveTo(parentId: string | null, position: number, now: Date): void {
    this.state = { ...this.state, parentId, position, updatedAt: now };
  }

  /**
   * Moves the space to another organization, at its root. Merge rules that name reviewers
   * would name users of the old organization, so such a space cannot be transferred (412)
   * until its rules are reset.
   */
  transferTo(organizationId: string, position: number, now: Date): void {
    if (organizationId === this.state.organizationId) {
      throw new ConflictError(`Space "${this.id}" already belongs to organization "${organizationId}"`);
    }
    if (mergeRuleUserIds(this.state.mergeRules).length > 0) {
      throw new PreconditionFailedError(
        'The space cannot be moved: its merge rules name members of its organization; change its merge rules first',
      );
    }
    this.state = { ...this.state, organizationId, parentId: null, position, updatedAt: now };
  }

  /**
   * A copy next to this space: same content settings, a new revision, no comments or change
   * requests. Access settings are not copied: like a new space, the copy inherits from where
   * it is placed, so whoever may create it there can see it.
   */
  duplicate(input: { id: string; revisionId: string; position: number; createdBy: string; now: Date }): Space {
    const room = SPACE_TITLE_MAX - COPY_SUFFIX.length;
    const base = this.state.title.length > room ? this.state.title.slice(0, room).trimEnd() : this.state.title;
    return new Space({
      ...this.state,
      id: input.id,
      title: base + COPY_SUFFIX,
      mergeRules: structuredClone(this.state.mergeRules),
      defaultLevel: 'inherit',
      ...freshLife(input),
    });
  }
}
