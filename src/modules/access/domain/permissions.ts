import { MemberRole, OrgRole, TeamRole, atLeast } from './roles';

/** The `permissions` booleans of each resource, derived from the caller's effective role. */

export function organizationPermissions(role: OrgRole) {
  const admin = role === 'admin';
  const member = role !== null;
  return {
    view: true,
    // Open the organization in the app: the current contract (POST /orgs answers with it) requires it.
    access: true,
    admin,
    ownTeam: admin,
    createContent: atLeast(role, 'create'),
    createOpenAPISpec: atLeast(role, 'create'),
    ingestConversations: atLeast(role, 'edit'),
    viewBilling: admin,
    listMembers: member,
    listTeams: member,
    listIntegrations: member,
    listInstallations: admin,
    installIntegration: admin,
  };
}

export function collectionPermissions(role: MemberRole | null) {
  return {
    view: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    create: atLeast(role, 'create'),
  };
}

export function spacePermissions(role: MemberRole | null, editMode: string) {
  const live = editMode !== 'locked';
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    admin: atLeast(role, 'admin'),
    viewInviteLinks: atLeast(role, 'admin'),
    edit: live && atLeast(role, 'edit'),
    triggerGitSync: live && atLeast(role, 'edit'),
    comment: atLeast(role, 'comment'),
    merge: live && atLeast(role, 'edit'),
    review: atLeast(role, 'review'),
    installIntegration: atLeast(role, 'admin'),
  };
}

/** Organization admins and team owners manage a team; every non-guest member sees it. */
export function teamPermissions(orgRole: OrgRole, teamRole: TeamRole | null) {
  return {
    admin: orgRole === 'admin' || teamRole === 'owner',
    view: orgRole !== null || teamRole !== null,
  };
}
