import { Injectable } from '@nestjs/common';
import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { AccessService } from '../../access/application/access.service';
import { emailVisible } from '../domain/email-visibility';
import { User, validateDisplayName } from '../domain/user';
import { IdentityService } from './identity.service';

/**
 * Other users, as the caller may see them (`GET /users/{userId}`, where every `urls.location`
 * points): the caller themselves, or someone who shares an active organization membership
 * with them. Anyone else is "not found", so user ids of other tenants reveal nothing.
 */
@Injectable()
export class UserDirectory {
  constructor(
    private readonly identity: IdentityService,
    private readonly access: AccessService,
  ) {}

  async get(caller: User, userId: string): Promise<{ user: User; showEmail: boolean }> {
    if (userId === caller.id) return { user: caller, showEmail: true };
    if (caller.siteScope) return { user: await this.memberMentionedOnSite(caller.siteScope.organizationId, userId), showEmail: false };
    const shared = await this.access.sharedOrganizations(caller, userId);
    if (shared.length === 0) throw NotFoundError.of('User', userId);
    const user = (await this.identity.findByIds([userId])).get(userId);
    if (!user) throw NotFoundError.of('User', userId);
    return { user, showEmail: emailVisible(caller.id, userId, shared) };
  }

  /**
   * A published site's reader (GitBook's renderer showing a user mention) sees the members of the
   * site's organization by name and photo, never their e-mail; anyone else is "not found".
   */
  private async memberMentionedOnSite(organizationId: string, userId: string): Promise<User> {
    const user = (await this.access.isMember(organizationId, userId)) ? (await this.identity.findByIds([userId])).get(userId) : undefined;
    if (!user) throw NotFoundError.of('User', userId);
    return user;
  }

  /**
   * `PATCH /users/{userId}`: users edit their own name and photo. Someone the caller can see is
   * 403; anyone else 404, as for reads.
   */
  async updateOwn(caller: User, userId: string, profile: { displayName?: string; photoUrl?: string }): Promise<User> {
    await this.get(caller, userId);
    if (userId !== caller.id) throw new ForbiddenError('Only the user themselves can change their profile');
    if (profile.displayName === undefined && profile.photoUrl === undefined) throw new InvalidError('Give displayName or photoURL');
    const displayName = profile.displayName === undefined ? undefined : validateDisplayName(profile.displayName, 64);
    const updated = await this.identity.updateProfile(caller.id, { displayName, photoUrl: profile.photoUrl });
    if (!updated) throw NotFoundError.of('User', userId);
    return updated;
  }
}
