import { EVENT_TYPES } from '../domain/event-types';

/** Response schemas of the webhook and audit-log operations (ours, not GitBook's), for the served OpenAPI document. */
const timestamp = { type: 'string', format: 'date-time' } as const;
const nullableTimestamp = { type: 'string', format: 'date-time', nullable: true } as const;

export const WEBHOOK_SCHEMA = {
  type: 'object',
  required: ['object', 'id', 'organization', 'url', 'events', 'spaces', 'active', 'disabled', 'failingSince', 'createdAt', 'updatedAt', 'urls'],
  properties: {
    object: { type: 'string', enum: ['webhook'] },
    id: { type: 'string' },
    organization: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } },
    spaces: { type: 'array', items: { type: 'string' }, nullable: true, description: 'Only events about these spaces; null for all' },
    active: { type: 'boolean' },
    disabled: {
      type: 'object',
      nullable: true,
      description: 'Set when the server switched the webhook off because its deliveries failed for the whole retry window',
      required: ['at', 'reason'],
      properties: { at: timestamp, reason: { type: 'string' } },
    },
    failingSince: { ...nullableTimestamp, description: 'When the current run of failed deliveries began' },
    createdAt: timestamp,
    updatedAt: timestamp,
    secret: { type: 'string', description: 'The signing secret: only in the answers of creation and rotation' },
    urls: { type: 'object', required: ['deliveries'], properties: { deliveries: { type: 'string' } } },
  },
};

const ATTEMPT_SCHEMA = {
  type: 'object',
  required: ['attempt', 'at', 'durationMs', 'request', 'response', 'error'],
  properties: {
    attempt: { type: 'integer' },
    at: timestamp,
    durationMs: { type: 'integer' },
    request: { type: 'object', properties: { headers: { type: 'object', additionalProperties: { type: 'string' } } } },
    response: {
      type: 'object',
      nullable: true,
      description: 'null when no answer came (refused address, timeout, connection error)',
      properties: { status: { type: 'integer' }, headers: { type: 'object', additionalProperties: { type: 'string' } }, body: { type: 'string', description: 'The first KB' } },
    },
    error: { type: 'string', nullable: true },
  },
};

export const DELIVERY_SCHEMA = {
  type: 'object',
  required: ['object', 'id', 'webhook', 'event', 'status', 'attempts', 'lastStatus', 'nextAttemptAt', 'replayOf', 'createdAt', 'deliveredAt'],
  properties: {
    object: { type: 'string', enum: ['webhook-delivery'] },
    id: { type: 'string' },
    webhook: { type: 'string' },
    event: { type: 'object', required: ['id', 'type', 'createdAt'], properties: { id: { type: 'string' }, type: { type: 'string', enum: [...EVENT_TYPES] }, createdAt: timestamp } },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    lastStatus: { type: 'integer', nullable: true },
    nextAttemptAt: nullableTimestamp,
    replayOf: { type: 'string', nullable: true, description: 'The delivery this one replays' },
    createdAt: timestamp,
    deliveredAt: nullableTimestamp,
    request: { type: 'object', description: 'Single-delivery answers only', properties: { body: { type: 'string' } } },
    log: { type: 'array', description: 'Single-delivery answers only: every attempt', items: ATTEMPT_SCHEMA },
  },
};

export const AUDIT_ENTRY_SCHEMA = {
  type: 'object',
  required: ['object', 'id', 'organization', 'actor', 'action', 'resources', 'changes', 'ip', 'userAgent', 'createdAt'],
  properties: {
    object: { type: 'string', enum: ['audit-entry'] },
    id: { type: 'string' },
    organization: { type: 'string' },
    actor: {
      type: 'object',
      required: ['type'],
      properties: { type: { type: 'string', enum: ['user', 'system'] }, user: { type: 'string' }, token: { type: 'string', nullable: true }, job: { type: 'string' } },
    },
    action: { type: 'string', description: 'The API operationId, or `job:<name>`' },
    resources: { type: 'array', items: { type: 'string' }, description: 'Ids of what was touched (path ids first)' },
    changes: {
      type: 'object',
      description:
        '`{fields?, records: [{record, id?, change: created|updated|deleted, fields?}], omitted?}`: `fields` are the top-level fields of the request ' +
        'body (what the caller asked to change), each record one row the change wrote with the columns it set. Names only, never values.',
      additionalProperties: true,
    },
    ip: { type: 'string', nullable: true },
    userAgent: { type: 'string', nullable: true },
    createdAt: timestamp,
  },
};

export function listOf(item: object) {
  return {
    type: 'object',
    required: ['items', 'count'],
    properties: { items: { type: 'array', items: item }, count: { type: 'integer' }, next: { type: 'object', properties: { page: { type: 'string' } } } },
  };
}

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

/**
 * These operations as an OpenAPI paths object: the test harness checks our answers against it the
 * way it checks GitBook's operations against GitBook's contract.
 */
export const EVENTS_CONTRACT = {
  paths: {
    '/orgs/{organizationId}/webhooks': {
      get: { responses: { 200: json(listOf(WEBHOOK_SCHEMA)) } },
      post: { responses: { 201: json(WEBHOOK_SCHEMA) } },
    },
    '/orgs/{organizationId}/webhooks/{webhookId}': {
      get: { responses: { 200: json(WEBHOOK_SCHEMA) } },
      patch: { responses: { 200: json(WEBHOOK_SCHEMA) } },
      delete: { responses: { 204: {}, 205: {} } },
    },
    '/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret': { post: { responses: { 200: json(WEBHOOK_SCHEMA) } } },
    '/orgs/{organizationId}/webhooks/{webhookId}/deliveries': { get: { responses: { 200: json(listOf(DELIVERY_SCHEMA)) } } },
    '/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}': { get: { responses: { 200: json(DELIVERY_SCHEMA) } } },
    '/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/replay': { post: { responses: { 201: json(DELIVERY_SCHEMA) } } },
    '/orgs/{organizationId}/audit-log': { get: { responses: { 200: json(listOf(AUDIT_ENTRY_SCHEMA)) } } },
  },
  components: {},
};
