import { AccessContext, CollectionNode } from '../domain/access-context';
import { DefaultLevel, MemberRole, OrgRole } from '../domain/roles';

/** The access context as read from the database: what accessContextColumns selects. */
export interface AccessContextRead {
  access_member: { role: OrgRole } | null;
  access_collections: [string, string | null, DefaultLevel][];
  access_grants: [string | null, string | null, MemberRole][];
}

/**
 * The three columns that decide a user's access in an organization (membership, the collection
 * tree, the grants to the user and their teams), as SQL expressions over `organization` and `user`
 * (parameters, or columns of an outer query). The access repository selects them on their own;
 * a repository that reads what a request names (a space) selects them beside its row, so the
 * request pays one round trip instead of two.
 */
export function accessContextColumns(organization: string, user: string): string {
  return `(SELECT json_build_object('role', m.role) FROM organization_members m
            WHERE m.organization_id = ${organization} AND m.user_id = ${user} AND NOT m.disabled) AS access_member,
         (SELECT coalesce(json_agg(json_build_array(c.id, c.parent_id, c.default_level)), '[]'::json)
            FROM collections c WHERE c.organization_id = ${organization}) AS access_collections,
         (SELECT coalesce(json_agg(json_build_array(g.space_id, g.collection_id, g.role)), '[]'::json)
            FROM content_grants g
           WHERE g.organization_id = ${organization}
             AND (g.user_id = ${user} OR g.team_id IN (
                   SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
                    WHERE tm.user_id = ${user} AND t.organization_id = ${organization}))) AS access_grants`;
}

/** The access context of a read of accessContextColumns. */
export function accessContextOf(organizationId: string, read: AccessContextRead): AccessContext {
  const collections: CollectionNode[] = read.access_collections.map(([id, parentId, defaultLevel]) => ({ id, parentId, defaultLevel }));
  const spaceGrants = new Map<string, MemberRole[]>();
  const collectionGrants = new Map<string, MemberRole[]>();
  for (const [spaceId, collectionId, role] of read.access_grants) {
    const target = spaceId ? spaceGrants : collectionGrants;
    const key = (spaceId ?? collectionId) as string;
    target.set(key, [...(target.get(key) ?? []), role]);
  }
  return new AccessContext(organizationId, read.access_member ? read.access_member.role : undefined, collections, spaceGrants, collectionGrants);
}
