import type { OutboxEvent } from '../../events';

/** An outbox event as the integration event GitBook's services expect, and the target it concerns. */
export interface MadeEvent {
  target: { kind: 'space'; id: string };
  payload: Record<string, unknown> & { type: string };
}

/**
 * Which domain events integrations hear from the outbox, in GitBook's event shapes: content updates
 * (`space_content_updated`). The installation events are recorded by the installations' own use
 * cases, tasks by queueIntegrationTask; GitBook's other events are not sent yet (see docs/integrations.md).
 */
export function integrationEventsFor(event: OutboxEvent): MadeEvent | null {
  if (event.type !== 'content.updated' || !event.spaceId) return null;
  return {
    target: { kind: 'space', id: event.spaceId },
    // GitBook's `updatedBy` holds whole users; ours names the one who did it by id, beside an empty list.
    payload: { type: 'space_content_updated', spaceId: event.spaceId, revisionId: String(event.data.revision ?? ''), updatedBy: [], ...(event.actor.userId ? { updatedByUserId: event.actor.userId } : {}) },
  };
}
