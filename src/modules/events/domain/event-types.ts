/**
 * The domain events integrators can subscribe to. Each names the resource it is about; the
 * webhook payload carries that resource as the API presents it.
 */
export const EVENT_TYPES = [
  'space.created',
  'space.updated',
  'space.deleted',
  'space.restored',
  'content.updated',
  'change_request.created',
  'change_request.updated',
  'change_request.merged',
  'change_request.closed',
  'comment.created',
  'comment.resolved',
  'site.published',
  'site.unpublished',
  'git_sync.completed',
  'git_sync.failed',
  'translation.completed',
  'openapi_spec.processed',
  'member.added',
  'member.removed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The kinds of resources events are about (the `object` of the resource in the payload). */
export type ResourceKind = 'space' | 'change-request' | 'comment' | 'site' | 'openapi-spec' | 'translation' | 'member';

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** What a use case records about its change, inside its transaction. */
export interface NewDomainEvent {
  type: EventType;
  organizationId: string;
  /** The space the event concerns, if any: webhooks may filter on it. */
  spaceId?: string | null;
  resource: { kind: ResourceKind; id: string };
  /** Facts beyond the resource (the new revision, the merge's revision, a failure's reason). Never secrets. */
  data?: Record<string, unknown>;
}
