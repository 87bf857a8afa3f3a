import { OrgRole } from '../../access/domain/roles';

export interface Member {
  organizationId: string;
  userId: string;
  role: OrgRole;
  disabled: boolean;
  sso: boolean;
  joinedAt: Date;
  lastSeenAt: Date | null;
}

export function newMember(organizationId: string, userId: string, role: OrgRole, now: Date, sso = false): Member {
  return { organizationId, userId, role, disabled: false, sso, joinedAt: now, lastSeenAt: null };
}
