import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { ActorContexts } from '../../../core/context/actor-context';
import { Tx } from '../../../database/transactions';
import { AccessContext } from '../domain/access-context';
import { Caller } from '../domain/caller';
import { MemberRole, OrgRole, atLeast } from '../domain/roles';
import { AccessRepository } from '../infrastructure/access.repository';
import { AccessContextRead, accessContextOf } from '../infrastructure/access-context.sql';

/**
 * The one place that answers "what may this caller do here". Other modules ask it before
 * every use case. Not being allowed to see something is reported as "not found", so that
 * ids of other tenants never leak; seeing but not being allowed to change is "forbidden".
 * The organization it is asked about is the one the work acts in: the audit log files the work's
 * changes there (`ActorContexts.noteOrganization`).
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
    ActorContexts.noteOrganization(organizationId);
    return this.scopedContext(caller, organizationId) ?? this.repository.loadContext(caller.id, organizationId, tx);
  }

  /**
   * As context(caller, ...), from the access columns another module's repository read beside the row
   * a request names (accessContextColumns, for the caller's id and the row's organization).
   */
  contextFromRead(caller: Caller, organizationId: string, read: AccessContextRead): AccessContext {
    ActorContexts.noteOrganization(organizationId);
    return this.scopedContext(caller, organizationId) ?? accessContextOf(organizationId, read);
  }

  /** The context of a caller whose token decides it (limited to an organization, an integration or a site); undefined for a plain user. */
  private scopedContext(caller: Caller, organizationId: string): AccessContext | undefined {
    if (!isInScope(caller, organizationId)) return AccessContext.outsider(organizationId);
    if (caller.integrationScope) {
      const grant = caller.integrationScope;
      return grant.organizationId === organizationId ? AccessContext.integration(organizationId, grant.scopes, grant.spaceIds) : AccessContext.outsider(organizationId);
    }
    if (caller.siteScope) {
      return caller.siteScope.organizationId === organizationId ? AccessContext.siteReader(organizationId, caller.siteScope.spaceIds) : AccessContext.outsider(organizationId);
    }
    return undefined;
  }

  /**
   * For use cases that act on an organization without going through its access context (joining
   * it): a token limited to another organization (SAML sign-in) gets the organization's 404.
   */
  assertInScope(caller: Caller, organizationId: string): void {
    if (!isInScope(caller, organizationId)) throw NotFoundError.of('Organization', organizationId);
  }

  /** For use cases outside every organization (creating one): a token limited to one organization is refused (403). */
  assertUnscoped(caller: Caller, action: string): void {
    if (caller.organizationScope) {
      throw new ForbiddenError(`This token was issued by an organization's single sign-on and acts only in that organization: it cannot ${action}`);
    }
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

  /**
   * The organizations the caller and another user are both active members of, with the
   * caller's role in each (null: guest). A token limited to one organization sees only that one.
   */
  sharedOrganizations(caller: Caller, userId: string): Promise<{ organizationId: string; viewerRole: OrgRole }[]> {
    if (caller.siteScope || caller.integrationScope) return Promise.resolve([]);
    return this.repository.sharedOrganizations(caller.id, userId, caller.organizationScope ?? null);
  }

  /** The organizations the caller's token may act in as a member, with its role in each. */
  async memberships(caller: Caller): Promise<Array<{ organizationId: string; role: OrgRole }>> {
    if (caller.siteScope || caller.integrationScope) return [];
    return this.repository.memberships(caller.id, caller.organizationScope ?? null);
  }

  /** Whether `userId` is a member of the organization (its people, as a published site's content mentions them). */
  async isMember(organizationId: string, userId: string): Promise<boolean> {
    return (await this.repository.nonMembers(organizationId, [userId])).length === 0;
  }

  /** The caller as a viewer of users shown in the organization (see userViewer). */
  async viewerIn(caller: Caller, organizationId: string): Promise<{ id: string; seesEmails: boolean }> {
    return userViewer(caller.id, await this.context(caller, organizationId));
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

/** Whether the caller's token may act in the organization: any token, unless limited to another organization. */
export function isInScope(caller: Caller, organizationId: string): boolean {
  return !caller.organizationScope || caller.organizationScope === organizationId;
}

/** 403 naming what is missing, for a caller already known to see the resource. */
export function assertRole(role: MemberRole | OrgRole | null | undefined, minimum: MemberRole, what: string): void {
  if (!atLeast(role ?? null, minimum)) {
    throw new ForbiddenError(`This action requires the "${minimum}" role on this ${what}`);
  }
}

/**
 * Content leaving an organization (space or collection transfer) needs the organization `admin`
 * role there: the organization loses it and every grant on it, which a grant on one space or
 * collection (or the `create` role, which only adds content) does not entitle anyone to decide.
 * The caller already sees the content, so this is a 403.
 */
export function assertMayTransferOut(source: AccessContext): void {
  if (!source.isAdmin) {
    throw new ForbiddenError('Transferring content out of an organization requires the "admin" role in that organization');
  }
}

/**
 * The one rule for e-mail addresses of users shown in an organization's resources (members,
 * permissions, comments, change requests, reviews): non-guest members of the organization see
 * them; guests (and anyone else) do not, except their own. Guests only see content shared with
 * them and get 403 on the member list, so they do not get the organization's address book
 * through other lists either.
 */
export function userViewer(callerId: string, context: AccessContext): { id: string; seesEmails: boolean } {
  return { id: callerId, seesEmails: context.isMember && context.orgRole !== null };
}
