import { bearerToken } from '@app/common';
import type { NextFunction, Request, Response } from 'express';
import type { User } from '../modules/identity/domain/user';

export const ADMIN_COOKIE = 'docs_admin';

/** How the caller signs in: an Authorization bearer (an API token), else the console's session cookie. */
export type ConsoleCredential = { bearer: string } | { session: string };

export function consoleCredential(req: Request): ConsoleCredential | undefined {
  const bearer = bearerToken(req.headers.authorization);
  if (bearer) return { bearer };
  const session = sessionCookie(req);
  return session ? { session } : undefined;
}

export function sessionCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** Only a full (not organization-scoped) token of an instance administrator opens the console. */
export function isConsoleUser(user: User | null): boolean {
  return !!user && user.instanceAdmin === true && !user.organizationScope;
}

/**
 * Guards the operator's console. A browser without a valid session is sent to the login page;
 * other callers get 401 (no or unknown token) or 403 (not an instance administrator).
 */
export function requireInstanceAdmin(authenticate: (credential: ConsoleCredential) => Promise<User | null>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const credential = consoleCredential(req);
      const user = credential ? await authenticate(credential) : null;
      if (isConsoleUser(user)) return next();
      if (req.method === 'GET' && (req.headers.accept ?? '').includes('text/html')) {
        res.redirect(303, '/admin/login');
        return;
      }
      const code = user ? 403 : 401;
      res.status(code).json({ error: { code, message: user ? 'The console is open to instance administrators only' : 'Sign in with an instance administrator token' } });
    } catch (error) {
      next(error);
    }
  };
}
