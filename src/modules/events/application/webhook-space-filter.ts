import type { User } from '../../identity/domain/user';

/**
 * Which of the spaces a webhook's filter names the caller sees in the organization: a port, so
 * webhooks (below spaces in the dependency direction) check a body's space ids without importing
 * the spaces module; the spaces module provides it (SpacePortsModule).
 */
export abstract class WebhookSpaceFilter {
  abstract visibleSpaces(caller: User, organizationId: string, spaceIds: string[]): Promise<Set<string>>;
}
