import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiAnswer, OwnApi } from './own-api';

const id = () => z.string().min(1).max(64);
const segment = (value: string) => encodeURIComponent(value);

/**
 * The organization MCP server, for agents holding an API token: each tool is one or two calls of
 * our REST API as the token's user, so a tool can do exactly what that user may, and leaves the
 * same audit entries, events and rate-limit spend as the request it stands for.
 */
export function organizationMcpServer(api: OwnApi): McpServer {
  const server = new McpServer(
    { name: 'Docs platform', version: '1.0.0' },
    {
      instructions:
        'Read and edit documentation: list organizations and spaces, search, read pages as markdown; change content only ' +
        'through a change request (create one, write pages into it, ask for review, merge when allowed), then publish a site.',
    },
  );
  const read = { readOnlyHint: true, openWorldHint: false };
  const write = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

  server.registerTool('listOrganizations', { description: 'The organizations the token can act in.', inputSchema: {}, annotations: read }, async () =>
    answer(await api.call('GET', '/orgs?limit=100'), (body) => lines(body.items, (o: any) => `- ${o.title} (id ${o.id})`)),
  );

  server.registerTool(
    'listSpaces',
    { description: 'The spaces of an organization the token can read.', inputSchema: { organizationId: id() }, annotations: read },
    async ({ organizationId }) => answer(await api.call('GET', `/orgs/${segment(organizationId)}/spaces?limit=100`), (body) => lines(body.items, (s: any) => `- ${s.title} (id ${s.id})`)),
  );

  server.registerTool(
    'searchContent',
    { description: "Full-text search over an organization's spaces: the pages that match, with their space.", inputSchema: { organizationId: id(), query: z.string().min(1).max(200) }, annotations: read },
    async ({ organizationId, query }) =>
      answer(await api.call('GET', `/orgs/${segment(organizationId)}/search?query=${encodeURIComponent(query)}&limit=10`), (body) =>
        lines(body.items, (space: any) => `## ${space.title} (space ${space.id})\n${(space.pages ?? []).map((p: any) => `- ${p.title} (page ${p.id}, path ${p.path})${p.sections?.[0]?.body ? `: ${p.sections[0].body}` : ''}`).join('\n')}`),
      ),
  );

  server.registerTool(
    'listPages',
    { description: 'The page tree of a space (titles, ids and paths).', inputSchema: { spaceId: id() }, annotations: read },
    async ({ spaceId }) => answer(await api.call('GET', `/spaces/${segment(spaceId)}/content/pages`), (body) => tree(body.pages ?? [], 0)),
  );

  server.registerTool(
    'readPage',
    {
      description: "A page as markdown, by id or path: the space's current content, or a change request's when one is named.",
      inputSchema: { spaceId: id(), pageId: id().optional(), path: z.string().max(500).optional(), changeRequestId: id().optional() },
      annotations: read,
    },
    async ({ spaceId, pageId, path, changeRequestId }) => {
      if (!pageId && path === undefined) return failure('Give pageId or path.');
      const base = changeRequestId ? `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content` : `/spaces/${segment(spaceId)}/content`;
      const where = pageId ? `/page/${segment(pageId)}` : `/path/${path!.split('/').map(segment).join('/')}`;
      return answer(await api.call('GET', `${base}${where}?format=markdown`), (body) => `${body.markdown ?? ''}\n---\npage ${body.id}, path ${body.path}`);
    },
  );

  server.registerTool(
    'createChangeRequest',
    { description: 'Opens a change request in a space: edits go there, not into the live content.', inputSchema: { spaceId: id(), subject: z.string().min(1).max(200) }, annotations: write },
    async ({ spaceId, subject }) => answer(await api.call('POST', `/spaces/${segment(spaceId)}/change-requests`, { subject }), (body) => `Change request ${body.id} (#${body.number}) opened: ${body.urls?.app ?? ''}`),
  );

  server.registerTool(
    'writePage',
    {
      description: "Writes a page's markdown into a change request: the page named by pageId, or a new page (give its title) at the end of the space.",
      inputSchema: { spaceId: id(), changeRequestId: id(), markdown: z.string().max(1_000_000), pageId: id().optional(), title: z.string().min(1).max(200).optional() },
      annotations: write,
    },
    async ({ spaceId, changeRequestId, markdown, pageId, title }) => {
      if (!pageId && !title) return failure('Give pageId to change a page, or title to add one.');
      const change = pageId ? { operation: 'update_page', page: pageId, ...(title ? { title } : {}), document: { markdown } } : { operation: 'insert_page', title, document: { markdown } };
      return answer(await api.call('POST', `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/content`, { changes: [change] }), () =>
        pageId ? `Page ${pageId} written into change request ${changeRequestId}.` : `Page "${title}" added to change request ${changeRequestId}.`,
      );
    },
  );

  server.registerTool(
    'requestReview',
    { description: 'Asks members (by user id) to review a change request.', inputSchema: { spaceId: id(), changeRequestId: id(), users: z.array(id()).min(1).max(20) }, annotations: write },
    async ({ spaceId, changeRequestId, users }) =>
      answer(await api.call('POST', `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/requested-reviewers`, { users }), () => `Review requested from ${users.join(', ')}.`),
  );

  server.registerTool(
    'mergeChangeRequest',
    { description: "Merges a change request into the space's live content, when the token's user may and the space's merge rules allow.", inputSchema: { spaceId: id(), changeRequestId: id() }, annotations: { ...write, destructiveHint: true } },
    async ({ spaceId, changeRequestId }) =>
      answer(await api.call('POST', `/spaces/${segment(spaceId)}/change-requests/${segment(changeRequestId)}/merge`), (body) =>
        body?.result === 'conflicts' ? `Not merged: the change request conflicts with the space.` : `Merged as revision ${body?.revision ?? ''}.`,
      ),
  );

  server.registerTool(
    'publishSite',
    { description: 'Publishes a docs site of an organization.', inputSchema: { organizationId: id(), siteId: id() }, annotations: write },
    async ({ organizationId, siteId }) => answer(await api.call('POST', `/orgs/${segment(organizationId)}/sites/${segment(siteId)}/publish`), (body) => `Site ${siteId} published${body?.urls?.published ? ` at ${body.urls.published}` : ''}.`),
  );
  return server;
}

/** The API's answer as a tool result: its error message (a tool error the agent can read), or `render` of its body. */
function answer(res: ApiAnswer, render: (body: any) => string): CallToolResult {
  if (res.status >= 400) return failure(`${res.status}: ${res.body?.error?.message ?? 'the request failed'}`);
  return { content: [{ type: 'text', text: render(res.body) }] };
}

function failure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function lines(items: unknown[] | undefined, line: (item: any) => string): string {
  return items?.length ? items.map(line).join('\n') : 'None.';
}

function tree(pages: any[], depth: number): string {
  return pages.map((p) => `${'  '.repeat(depth)}- ${p.title} (page ${p.id}, path ${p.path ?? ''})${p.pages?.length ? `\n${tree(p.pages, depth + 1)}` : ''}`).join('\n') || 'No pages.';
}
