import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, Urls } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';
import { VisitorClaims, visitorClaims } from '../domain/visitor-claims';
import { MembersRepository } from '../infrastructure/members.repository';
import { VisitorTokenSigner } from '../infrastructure/visitor-token.signer';

/**
 * POST /orgs/{id}/ping: records that the member was seen, and hands back a short-lived JWT of
 * their visitor claims signed with the organization's key. Sites of the organization call
 * `verify` to accept it (exported for the sites module).
 */
@Injectable()
export class VisitorClaimsService {
  constructor(
    private readonly access: AccessService,
    private readonly members: MembersRepository,
    private readonly signer: VisitorTokenSigner,
    private readonly urls: Urls,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Any active member (guests included); others get 404. Returns the signed visitor token. */
  async ping(caller: User, organizationId: string): Promise<string> {
    const context = await this.access.requireMember(caller, organizationId);
    const now = this.clock.now();
    await this.members.touchLastSeen(organizationId, caller.id, now);
    const claims = visitorClaims({ issuer: this.urls.root(''), user: caller, organizationId, role: context.orgRole ?? null, now });
    return this.signer.sign(claims);
  }

  /** The claims of a visitor token the organization issued and that is still valid; throws otherwise. */
  verify(organizationId: string, token: string): Promise<VisitorClaims> {
    return this.signer.verify(organizationId, token);
  }
}
