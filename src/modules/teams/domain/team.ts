import { InvalidError } from '@app/common';
import { teamPermissions } from '../../access/domain/permissions';
import { OrgRole, TEAM_ROLES, TeamRole } from '../../access/domain/roles';

export const TEAM_TITLE_MAX = 64;

export interface Team {
  id: string;
  organizationId: string;
  title: string;
  createdAt: Date;
}

/** One user's place in one team. */
export interface TeamMembership {
  teamId: string;
  userId: string;
  role: TeamRole;
  addedAt: Date;
}

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

/** Titles are trimmed; what remains must be 1 to 64 characters. */
export function validateTeamTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 1 || trimmed.length > TEAM_TITLE_MAX) {
    throw new InvalidError(`title: must be 1 to ${TEAM_TITLE_MAX} characters`);
  }
  return trimmed;
}

export function newTeam(id: string, organizationId: string, title: string, now: Date): Team {
  return { id, organizationId, title: validateTeamTitle(title), createdAt: now };
}

export function renameTeam(team: Team, title: string): Team {
  return { ...team, title: validateTeamTitle(title) };
}

/**
 * Every non-guest member of the organization sees every team; a guest sees only the teams
 * they belong to.
 */
export function canViewTeam(orgRole: OrgRole, teamRole: TeamRole | null): boolean {
  return teamPermissions(orgRole, teamRole).view;
}

/** Organization admins and the team's owners rename and delete a team and manage its members. */
export function canManageTeam(orgRole: OrgRole, teamRole: TeamRole | null): boolean {
  return teamPermissions(orgRole, teamRole).admin;
}

/** Only organization admins create teams (the organization's `ownTeam` permission). */
export function canCreateTeam(orgRole: OrgRole): boolean {
  return orgRole === 'admin';
}
