import type { OutboxEvent } from '../../events';

/** An outbox event as the integration event GitBook's services expect, and the target it concerns. */
export interface MadeEvent {
  target: { kind: 'space' | 'site'; id: string };
  payload: Record<string, unknown> & { type: string };
}

/**
 * Which domain events integrations hear, in GitBook's event shapes: content updates
 * (`space_content_updated`), Git Sync runs, visibility changes, and sites published (ours, as
 * `site_published`: GitBook has no such event).
 */
export function integrationEventsFor(event: OutboxEvent): MadeEvent | null {
  const spaceId = event.spaceId;
  switch (event.type) {
    case 'content.updated':
      if (!spaceId) return null;
      return {
        target: { kind: 'space', id: spaceId },
        payload: { type: 'space_content_updated', spaceId, revisionId: String(event.data.revision ?? ''), updatedBy: [], ...(event.actor.userId ? { updatedByUserId: event.actor.userId } : {}) },
      };
    case 'git_sync.completed':
      if (!spaceId) return null;
      return { target: { kind: 'space', id: spaceId }, payload: { type: 'space_gitsync_completed', spaceId, state: 'success', ...pick(event.data, ['revision', 'direction']) } };
    case 'space.updated':
      if (!spaceId || event.data.visibility === undefined) return null;
      return { target: { kind: 'space', id: spaceId }, payload: { type: 'space_visibility_updated', spaceId, visibility: event.data.visibility } };
    case 'site.published':
      return { target: { kind: 'site', id: event.resource.id }, payload: { type: 'site_published', siteId: event.resource.id } };
    default:
      return null;
  }
}

function pick(data: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]));
}
