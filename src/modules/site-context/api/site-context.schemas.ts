import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Answers of the site context operations GitBook has no equivalent of: served in /openapi.json and checked by the test harness. */
export const SITE_SCAN_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['object', 'id', 'status', 'topic', 'createdAt', 'findings', 'urls'],
  properties: {
    object: { type: 'string', enum: ['site-scan'] },
    id: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'running', 'done', 'failed'] },
    topic: { type: 'string', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
    findings: { type: 'object', required: ['low', 'medium', 'high'], properties: { low: { type: 'number' }, medium: { type: 'number' }, high: { type: 'number' } } },
    urls: { type: 'object', required: ['location'], properties: { location: { type: 'string' } } },
  },
};

export const SITE_CONTEXT_CONTRACT = {
  paths: { '/orgs/{organizationId}/sites/{siteId}/scans': { post: { responses: { 202: { content: { 'application/json': { schema: SITE_SCAN_SCHEMA } } } } } } },
  components: {},
};
