import type { User } from '../domain/user';

/**
 * Verifies an integration installation's token: the integration's user, limited to the
 * installation's organization, scopes and targets, or null when the token is unknown, expired or
 * its installation gone. The integrations module provides it; identity only knows the port.
 */
export abstract class InstallationTokenVerifier {
  abstract verify(token: string): Promise<User | null>;
}

export const INSTALLATION_TOKEN_PREFIX = 'gbi_';

export function looksLikeInstallationToken(token: string): boolean {
  return token.startsWith(INSTALLATION_TOKEN_PREFIX);
}
