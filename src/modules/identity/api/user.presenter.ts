import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { User } from '../domain/user';

/**
 * Who a user object is shown to, as far as e-mail addresses go. `seesEmails` comes from the one
 * rule in the access module (`userViewer`: non-guest members of the organization the users are
 * shown in); everyone sees their own address.
 */
export interface UserViewer {
  id: string;
  seesEmails: boolean;
}

/** GitBook's `User` object. Used by every resource that nests a user; `email` only for viewers allowed to see it. */
@Injectable()
export class UserPresenter {
  constructor(private readonly urls: Urls) {}

  /** The user as shown to themself (GET /user, their sign-in) or to the operator (CLI): with the e-mail. */
  presentOwn(user: User) {
    return this.present(user, { id: user.id, seesEmails: true });
  }

  /** A user who no longer exists still answers as a user object. */
  presentOrDeleted(user: User | undefined, id: string, viewer: UserViewer) {
    if (user) return this.present(user, viewer);
    return { object: 'user' as const, id, displayName: 'Deleted user', urls: { location: this.urls.api(`/users/${id}`) } };
  }

  present(user: User, viewer: UserViewer) {
    const showEmail = viewer.seesEmails || viewer.id === user.id;
    return {
      object: 'user' as const,
      id: user.id,
      displayName: user.displayName,
      ...(showEmail ? { email: user.email } : {}),
      ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
      urls: { location: this.urls.api(`/users/${user.id}`) },
    };
  }
}
