import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { Tx } from '../../../database/transactions';
import { AccessContext } from '../domain/access-context';
import { Caller } from '../domain/caller';
import { MemberRole, OrgRole, atLeast } from '../domain/roles';
import { AccessRepository } from '../infrastructure/access.repository';

/**
 * The one place that answers "what may this caller do here". Other modules ask it before
 * every use case. Not being allowed to see something is reported as "not found", so that
 * ids of other tenants never leak; seeing but not being allowed to change is "forbidden".
 */
@Injectable()
export class AccessService {
  constructor(private readonly repository: AccessRepository) {}

  /**
   * Everything that decides `who`'s access in the organization. `who` is the caller (whose token
   * may be limited to one organization) or the id of another user (e.g. a member being listed).
   * A token limited to another organization sees this one as a non-member.
   */
  async context(who: Caller | string, organizationId: string, tx?: Tx): Promise<AccessContext> {
    const caller = typeof who === 'string' ? { id: who } : who;
    if (caller.organizationScope && caller.organizationScope !== organizationId) return AccessContext.outsider(organizationId);
    return this.repository.loadContext(caller.id, organizationId, tx);
  }

  /** The caller's organization role; 404 when they are not a member. */
  async requireMember(who: Caller | string, organizationId: string, tx?: Tx): Promise<AccessContext> {
    const context = await this.context(who, organizationId, tx);
    if (!context.isMember) throw NotFoundError.of('Organization', organizationId);
    return context;
  }

  /** As requireMember, then 403 unless the organization role is at least `minimum`. */
  async requireOrgRole(who: Caller | string, organizationId: string, minimum: MemberRole, tx?: Tx): Promise<AccessContext> {
    const context = await this.requireMember(who, organizationId, tx);
    assertRole(context.orgRole ?? null, minimum, 'organization');
    return context;
  }

  memberStats(organizationId: string, userIds: string[]) {
    return this.repository.memberStats(organizationId, userIds);
  }

  teamStats(teamIds: string[]) {
    return this.repository.teamStats(teamIds);
  }

  /** 400 naming every user who is not a member of the organization (ids sent in a body). */
  async assertMembers(organizationId: string, userIds: string[], where: string, tx?: Tx): Promise<void> {
    const strangers = await this.repository.nonMembers(organizationId, userIds, tx);
    if (strangers.length > 0) {
      throw new InvalidError(`${where}: not a member of this organization: ${strangers.map((id) => `"${id}"`).join(', ')}`);
    }
  }

  /** Drops grants on content that moves to another organization, whose users and teams they named. */
  revokeGrants(spaceIds: string[], collectionIds: string[], tx?: Tx): Promise<void> {
    return this.repository.deleteGrants(spaceIds, collectionIds, tx);
  }
}

/** 403 naming what is missing, for a caller already known to see the resource. */
export function assertRole(role: MemberRole | OrgRole | null | undefined, minimum: MemberRole, what: string): void {
  if (!atLeast(role ?? null, minimum)) {
    throw new ForbiddenError(`This action requires the "${minimum}" role on this ${what}`);
  }
}
