import { OrgRole } from '../../access/domain/roles';

/** An invitation to an e-mail address with no user yet; honoured when that user is created. */
export interface PendingInvite {
  id: string;
  organizationId: string;
  email: string;
  role: OrgRole;
  sso: boolean;
  invitedBy: string | null;
  createdAt: Date;
}
