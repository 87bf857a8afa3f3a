import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { AuditEntryOrm } from '../infrastructure/audit-entry.orm';

interface AuditRecord {
  record: string;
  id?: string;
  change: string;
}

/** Tables a change writes along with the resource it is about: never the target of an event. */
const STORAGE_TABLES = new Set(['revisions', 'page_nodes', 'documents', 'space_documents', 'revision_links', 'revision_link_index', 'domain_events']);

/**
 * GitBook's audit event (`AuditEvent`, `AuditEventDetails`) over an entry of our audit log. The
 * target is the first record the change wrote that is a resource (not revision storage), as
 * `{type: table name in the singular, id}`, else the organization; the details' `payload` keeps
 * the whole entry: every record with the names of the fields changed, the ids involved, the token,
 * the client address and user agent.
 */
@Injectable()
export class AuditEventPresenter {
  constructor(private readonly urls: Urls) {}

  event(entry: AuditEntryOrm) {
    return {
      object: 'audit-event' as const,
      id: entry.id,
      occurredAt: entry.createdAt.toISOString(),
      action: entry.action,
      actor: { type: entry.actorType === 'user' ? 'user' : 'system', id: entry.actorId },
      // API calls are `api`; the system acts through its jobs.
      source: entry.actorType === 'user' ? 'api' : 'workflow',
      target: targetOf(entry),
      urls: { location: this.urls.api(`/orgs/${entry.organizationId}/audit-events/${entry.id}`) },
    };
  }

  details(entry: AuditEntryOrm) {
    return {
      ...this.event(entry),
      schemaVersion: 1,
      payload: {
        ...entry.changes,
        resources: entry.resourceIds,
        ...(entry.tokenId ? { token: entry.tokenId } : {}),
        ...(entry.ip ? { ip: entry.ip } : {}),
        ...(entry.userAgent ? { userAgent: entry.userAgent } : {}),
      },
    };
  }

  action(action: string) {
    return { object: 'audit-event-action' as const, id: action, label: action.startsWith('job:') ? `Job ${action.slice(4)}` : action };
  }
}

function targetOf(entry: AuditEntryOrm): { type: string; id: string } {
  const records = (entry.changes.records ?? []) as AuditRecord[];
  const resource = records.find((r) => r.id && !STORAGE_TABLES.has(r.record));
  if (resource) return { type: resource.record.replace(/s$/, ''), id: resource.id! };
  return { type: 'organization', id: entry.organizationId ?? '' };
}
