import { DefaultLevel, MemberRole, OrgRole, atLeast, strongest, weakest } from './roles';

export interface CollectionNode {
  id: string;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

export interface SpaceNode {
  id: string;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

/** Spaces a caller may see in one organization, in a form a repository turns into one WHERE clause. */
export interface SpaceVisibility {
  all: boolean;
  /** Spaces shared with the caller or one of their teams. */
  spaceIds: string[];
  /** Spaces whose defaultLevel is `inherit` are visible when their parent is one of these. */
  inheritingParentIds: string[];
  /** Spaces at the organization root with defaultLevel `inherit` are visible. */
  rootInherits: boolean;
  /** Spaces with an explicit, non-null defaultLevel are visible (the caller is a non-guest member). */
  explicitLevelVisible: boolean;
  /** Spaces inside one of these collections are visible whatever their own defaultLevel. */
  grantedParentIds: string[];
}

/**
 * Everything needed to decide a caller's effective role anywhere in one organization:
 * their organization role, the collection tree, and the grants made to them or their teams.
 *
 * Effective role on content = the strongest of
 * - the inherited default: walking up from the content, the first defaultLevel that is not
 *   `inherit` (capped at the caller's organization role; null gives nothing); when every level
 *   inherits, the organization role itself;
 * - every grant to the caller or their teams on the content or an enclosing collection.
 * Organization admins are admins everywhere; non-members have no role at all.
 */
export class AccessContext {
  private readonly collections: Map<string, CollectionNode>;

  constructor(
    readonly organizationId: string,
    /** undefined when the caller is not a member of the organization. */
    readonly orgRole: OrgRole | undefined,
    collections: CollectionNode[],
    private readonly spaceGrants: Map<string, MemberRole[]>,
    private readonly collectionGrants: Map<string, MemberRole[]>,
    /** Set for an integration installed on every space: its role on each. */
    private readonly everySpaceRole: MemberRole | null = null,
  ) {
    this.collections = new Map(collections.map((c) => [c.id, c]));
  }

  /** The context of someone with no membership at all. */
  static outsider(organizationId: string): AccessContext {
    return new AccessContext(organizationId, undefined, [], new Map(), new Map());
  }

  /**
   * A published site's reader (site token): read on the spaces its site shows the reader and
   * nothing else. It counts as a guest whose only grants are those spaces, so no other content,
   * collection or setting is visible.
   */
  static siteReader(organizationId: string, spaceIds: readonly string[]): AccessContext {
    return new AccessContext(organizationId, null, [], new Map(spaceIds.map((id) => [id, ['read'] as MemberRole[]])), new Map());
  }

  /**
   * An integration installation's token: a guest whose only grants are the spaces the installation
   * covers (all of them for `all`), at the role its scopes give (`edit` with
   * `space:content:write`, `read` with a read scope, none otherwise).
   */
  static integration(organizationId: string, scopes: readonly string[], spaceIds: readonly string[] | 'all'): AccessContext {
    const role: MemberRole | null = scopes.includes('space:content:write') ? 'edit' : scopes.some((s) => s === 'space:content:read' || s === 'space:metadata:read') ? 'read' : null;
    if (!role) return new AccessContext(organizationId, null, [], new Map(), new Map());
    if (spaceIds === 'all') return new AccessContext(organizationId, null, [], new Map(), new Map(), role);
    return new AccessContext(organizationId, null, [], new Map(spaceIds.map((id) => [id, [role]])), new Map());
  }

  get isMember(): boolean {
    return this.orgRole !== undefined;
  }

  get isAdmin(): boolean {
    return this.orgRole === 'admin';
  }

  roleOnCollection(collectionId: string): MemberRole | null {
    const node = this.collections.get(collectionId);
    if (!node) return null;
    return this.resolve(node.defaultLevel, this.collectionGrants.get(node.id) ?? [], node.parentId);
  }

  roleOnSpace(space: SpaceNode): MemberRole | null {
    return this.resolve(space.defaultLevel, this.spaceGrants.get(space.id) ?? [], space.parentId);
  }

  /** Collections the caller can see. */
  visibleCollectionIds(): string[] {
    return [...this.collections.keys()].filter((id) => atLeast(this.roleOnCollection(id), 'read'));
  }

  spaceVisibility(): SpaceVisibility {
    const ids = [...this.collections.keys()];
    return {
      all: this.isAdmin || this.everySpaceRole !== null,
      spaceIds: [...this.spaceGrants.keys()],
      inheritingParentIds: ids.filter((id) => atLeast(this.roleOnCollection(id), 'read')),
      rootInherits: this.isMember && this.orgRole !== null,
      explicitLevelVisible: this.isMember && this.orgRole !== null,
      grantedParentIds: ids.filter((id) => atLeast(this.grantsAbove(id), 'read')),
    };
  }

  private resolve(ownLevel: DefaultLevel, ownGrants: MemberRole[], parentId: string | null): MemberRole | null {
    if (this.orgRole === undefined) return null;
    if (this.orgRole === 'admin') return 'admin';
    if (this.everySpaceRole) return this.everySpaceRole;
    const base = this.inheritedBase(ownLevel, parentId);
    return strongest(base, ...ownGrants, this.grantsAbove(parentId));
  }

  private inheritedBase(ownLevel: DefaultLevel, parentId: string | null): MemberRole | null {
    let level = ownLevel;
    let next = parentId;
    const seen = new Set<string>();
    while (level === 'inherit' && next && !seen.has(next)) {
      seen.add(next);
      const parent = this.collections.get(next);
      if (!parent) break;
      level = parent.defaultLevel;
      next = parent.parentId;
    }
    const orgRole = this.orgRole ?? null;
    if (level === 'inherit') return orgRole;
    if (level === null || orgRole === null) return null;
    return weakest(orgRole, level);
  }

  /** The strongest grant on a collection and every collection enclosing it. */
  private grantsAbove(collectionId: string | null): MemberRole | null {
    let best: MemberRole | null = null;
    const seen = new Set<string>();
    for (let id = collectionId; id && !seen.has(id); id = this.collections.get(id)?.parentId ?? null) {
      seen.add(id);
      best = strongest(best, ...(this.collectionGrants.get(id) ?? []));
    }
    return best;
  }
}
