import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { shownSettings } from '../domain/context-connection';
import { TopicView } from '../application/site-topics.service';
import { ContextConnectionOrm, ContextRecordOrm } from '../infrastructure/context.orm';
import { SiteFindingOrm, SiteScanOrm } from '../infrastructure/findings.orm';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

/** A site's context (connections, records, scans, topics, findings) as GitBook's API shows it. */
@Injectable()
export class SiteContextPresenter {
  constructor(private readonly urls: Urls) {}

  connection(organizationId: string, c: ContextConnectionOrm) {
    const settings = shownSettings(c.connector, c.settings);
    return {
      object: 'context-connection' as const,
      id: c.id,
      connector: c.connector,
      ...(settings ? { setupSettings: settings } : {}),
      createdAt: c.createdAt.toISOString(),
      ...(c.syncedAt ? { syncedAt: c.syncedAt.toISOString() } : {}),
      ...(c.label ? { label: c.label } : {}),
      ...(c.filter ? { filter: c.filter } : {}),
      status: c.status,
      records: c.records,
      ...(c.failureMessage ? { failureMessage: c.failureMessage } : {}),
      ...(c.failureReason ? { failureReason: c.failureReason } : {}),
      usageSettings: c.usageSettings,
      urls: { location: this.site(organizationId, c.siteId, `context-connections/${c.id}`) },
    };
  }

  record(organizationId: string, r: ContextRecordOrm) {
    return {
      object: 'context-record' as const,
      id: r.id,
      title: r.title,
      ...(r.description ? { description: r.description } : {}),
      type: r.type,
      createdAt: r.createdAt.toISOString(),
      ...(r.processedAt ? { processedAt: r.processedAt.toISOString() } : {}),
      connection: r.connectionId,
      connector: r.connector,
      topics: r.topics,
      urls: { location: this.site(organizationId, r.siteId, `context-records/${r.id}`), ...(r.url ? { source: r.url } : {}) },
    };
  }

  scan(organizationId: string, s: SiteScanOrm) {
    return {
      object: 'site-scan' as const,
      id: s.id,
      status: s.status,
      topic: s.topicId,
      createdAt: s.createdAt.toISOString(),
      ...(s.startedAt ? { startedAt: s.startedAt.toISOString() } : {}),
      ...(s.finishedAt ? { finishedAt: s.finishedAt.toISOString() } : {}),
      findings: s.findings,
      ...(s.failureMessage ? { failureMessage: s.failureMessage } : {}),
      urls: { location: this.site(organizationId, s.siteId, `scans/${s.id}`) },
    };
  }

  topic(organizationId: string, { topic, findings, questions }: TopicView) {
    return {
      object: 'context-topic' as const,
      id: topic.id,
      label: topic.label,
      icon: 'lightbulb',
      summary: { object: 'document', data: {}, nodes: [paragraph(topic.summary)] },
      usageSettings: { changeRequests: topic.useForChangeRequests },
      pages: topic.pages,
      records: topic.records,
      findings,
      questions,
      createdAt: topic.createdAt.toISOString(),
      updatedAt: topic.updatedAt.toISOString(),
      urls: { location: this.site(organizationId, topic.siteId, `topics/${topic.id}`) },
    };
  }

  finding(organizationId: string, f: SiteFindingOrm) {
    return {
      object: 'site-finding' as const,
      id: f.id,
      scan: f.scanId,
      topic: f.topicId,
      title: f.title,
      changeRequests: f.changeRequests.length,
      pages: f.pages.length,
      records: f.recordIds.length,
      questions: f.questionIds.length,
      status: f.status,
      type: f.type,
      severity: f.severity,
      description: { object: 'document', data: {}, nodes: [paragraph(f.summary), ...f.samples.map((s) => paragraph(`“${s}”`))] },
      autoFixable: f.pages.length > 0,
      createdAt: f.createdAt.toISOString(),
      updatedAt: f.updatedAt.toISOString(),
      urls: { location: this.site(organizationId, f.siteId, `findings/${f.id}`) },
    };
  }

  private site(organizationId: string, siteId: string, rest: string): string {
    return this.urls.api(`/orgs/${organizationId}/sites/${siteId}/${rest}`);
  }
}
