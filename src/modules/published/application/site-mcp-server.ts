import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SiteReading } from './site-agent-reader';

const SERVER_VERSION = '1.0.0';
const SEARCH_LIMIT = 10;

/**
 * The MCP server of one published site, for one request (stateless): read-only tools over what the
 * site's reader at that address may read. Each tool answers text (markdown), the form agents use.
 */
export function siteMcpServer(site: SiteReading): McpServer {
  const server = new McpServer(
    { name: `${site.title} documentation`, version: SERVER_VERSION },
    { instructions: `Search and read the published documentation of ${site.title} (${site.siteUrl}). Cite pages by their URL.` },
  );

  server.registerTool(
    'searchDocumentation',
    {
      title: `Search ${site.title}`,
      description: `Searches the documentation of ${site.title} and returns the best matching pages, each with its URL and the passage that matched.`,
      inputSchema: { query: z.string().min(1).max(200).describe('What to look for, in a few words') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      const hits = await site.searchPages(query, SEARCH_LIMIT);
      const text = hits.length
        ? hits.map((hit) => `## ${hit.title}\n${hit.url}\n${hit.excerpt ? `\n${hit.excerpt}\n` : ''}`).join('\n')
        : `Nothing in ${site.title} matches "${query}".`;
      return { content: [{ type: 'text', text }] };
    },
  );

  server.registerTool(
    'getPage',
    {
      title: 'Read a page',
      description: 'Returns one page of the documentation as markdown, found by its URL (or its path within the site) or by its id.',
      inputSchema: {
        url: z.string().max(2000).optional().describe("The page's URL or its path within the site"),
        id: z.string().max(64).optional().describe("The page's id"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ url, id }) => {
      if (!url && !id) return { isError: true, content: [{ type: 'text', text: 'Give the page\'s url or its id.' }] };
      const page = await site.readPage({ id, path: url });
      if (!page) return { isError: true, content: [{ type: 'text', text: `No page of ${site.title} at ${url ?? id}.` }] };
      return { content: [{ type: 'text', text: `${page.markdown}\n---\nURL: ${page.url}\n` }] };
    },
  );

  server.registerTool(
    'listPages',
    {
      title: 'Table of contents',
      description: `Lists the pages of ${site.title} in reading order, with their URLs.`,
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const text = site
        .tableOfContents()
        .map((group) => `# ${group.space}\n\n${group.pages.map((p) => `${'  '.repeat(p.depth)}- [${p.title}](${p.url})`).join('\n')}`)
        .join('\n\n');
      return { content: [{ type: 'text', text: text || `${site.title} has no pages yet.` }] };
    },
  );
  return server;
}
