import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { User } from '../domain/user';

/** GitBook's `User` object. Used by every resource that nests a user. */
@Injectable()
export class UserPresenter {
  constructor(private readonly urls: Urls) {}

  present(user: User) {
    return {
      object: 'user' as const,
      id: user.id,
      displayName: user.displayName,
      email: user.email,
      ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
      urls: { location: this.urls.api(`/users/${user.id}`) },
    };
  }
}
