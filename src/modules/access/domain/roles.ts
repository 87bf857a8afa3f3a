/**
 * Organization and content roles, weakest to strongest:
 * read < comment < edit < review < create < admin.
 */
export const MEMBER_ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** A member's organization role; null is a guest, who only sees content shared with them. */
export type OrgRole = MemberRole | null;

/** What a collection or space gives the organization's members by default. */
export type DefaultLevel = MemberRole | 'inherit' | null;

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const RANK: Record<MemberRole, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}

export function atLeast(role: MemberRole | null | undefined, minimum: MemberRole): boolean {
  return !!role && RANK[role] >= RANK[minimum];
}

export function strongest(...roles: (MemberRole | null | undefined)[]): MemberRole | null {
  let best: MemberRole | null = null;
  for (const role of roles) if (role && (!best || RANK[role] > RANK[best])) best = role;
  return best;
}

export function weakest(a: MemberRole, b: MemberRole): MemberRole {
  return RANK[a] <= RANK[b] ? a : b;
}
