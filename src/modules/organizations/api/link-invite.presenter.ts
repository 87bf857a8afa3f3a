import { Injectable } from '@nestjs/common';
import { isRedundant } from '../domain/link-invite';
import { LinkInviteView } from '../application/link-invites.service';

/** GitBook's `InviteLinkToOrganization`, plus `createdAt` and, when set, `expiresAt`. */
@Injectable()
export class LinkInvitePresenter {
  present({ invite, callerRole }: LinkInviteView) {
    return {
      object: 'invite' as const,
      id: invite.id,
      role: invite.role,
      redundant: isRedundant(invite, callerRole),
      createdAt: invite.createdAt.toISOString(),
      ...(invite.expiresAt ? { expiresAt: invite.expiresAt.toISOString() } : {}),
    };
  }
}
