import { AccessContext, CollectionNode } from '../../access/domain/access-context';
import { DefaultLevel, MEMBER_ROLES, MemberRole, OrgRole } from '../../access/domain/roles';
import { ContentKind } from './content-grant';

/** The content whose audience is computed, placed in its organization's collection tree. */
export interface ContentNode {
  kind: ContentKind;
  id: string;
  parentId: string | null;
  defaultLevel: DefaultLevel;
}

/** A grant on the content or a collection enclosing it. */
export interface ChainGrant {
  spaceId: string | null;
  collectionId: string | null;
  role: MemberRole;
}

/** Every organization role, guests (null) included. */
export const ORG_ROLES: OrgRole[] = [...MEMBER_ROLES, null];

/**
 * Who can access one space or collection, and with which role. The role rule itself is the
 * access read model's (AccessContext); this only feeds it one member at a time, so the
 * audience listed always matches what each member can actually do.
 */
export class ContentAudience {
  constructor(
    private readonly organizationId: string,
    private readonly content: ContentNode,
    private readonly collections: CollectionNode[],
  ) {}

  /** Collections whose grants reach the content: itself when a collection, then every enclosing one. */
  grantScope(): string[] {
    const byId = new Map(this.collections.map((c) => [c.id, c]));
    const ids: string[] = [];
    const seen = new Set<string>();
    for (let id = this.content.kind === 'collection' ? this.content.id : this.content.parentId; id && !seen.has(id); id = byId.get(id)?.parentId ?? null) {
      seen.add(id);
      ids.push(id);
    }
    return ids;
  }

  /** The effective role of a member with this organization role and these grants (theirs and their teams'). */
  roleOf(orgRole: OrgRole, grants: ChainGrant[]): MemberRole | null {
    const spaceGrants = new Map<string, MemberRole[]>();
    const collectionGrants = new Map<string, MemberRole[]>();
    for (const grant of grants) {
      const [target, key] = grant.spaceId ? [spaceGrants, grant.spaceId] : [collectionGrants, grant.collectionId as string];
      target.set(key, [...(target.get(key) ?? []), grant.role]);
    }
    const context = new AccessContext(this.organizationId, orgRole, this.collections, spaceGrants, collectionGrants);
    return this.content.kind === 'space'
      ? context.roleOnSpace({ id: this.content.id, parentId: this.content.parentId, defaultLevel: this.content.defaultLevel })
      : context.roleOnCollection(this.content.id);
  }

  /** The role each organization role gives without any grant. */
  defaultRoles(): Map<OrgRole, MemberRole | null> {
    return new Map(ORG_ROLES.map((orgRole) => [orgRole, this.roleOf(orgRole, [])]));
  }
}

/** Whether a member with this effective role is listed: they have access, with `only` when given. */
export function listed(role: MemberRole | null, only?: MemberRole): role is MemberRole {
  return role !== null && (only === undefined || role === only);
}
