/**
 * Which operations of the current GitBook client (`gitbook-api-current`'s OpenAPI) in the areas
 * this server builds exist as routes of the app, from the app's own route metadata (no server,
 * no database). Prints a markdown table; `--write` replaces the table in docs/security.md between the
 * `client-parity` markers, `--check` fails when that table is out of date.
 *
 *   npx ts-node -r tsconfig-paths/register --transpile-only scripts/client-parity.ts [--write|--check]
 */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { AppModule } from '../src/app.module';

/** GitBook's tags, grouped into the areas this server builds. */
const AREAS: Record<string, string[]> = {
  organizations: ['organizations', 'organization-invites', 'sso', 'subdomains'],
  members: ['organization-members'],
  teams: ['teams', 'team-members'],
  collections: ['collections', 'collection-permissions'],
  spaces: ['spaces', 'space-permissions', 'space-embeds'],
  'content and revisions': ['space-content'],
  'change requests': ['change-requests', 'change-requests-reviews', 'change-request-reviewers', 'change-request-contributors', 'change-request-content', 'change-request-conversations'],
  comments: ['space-comments', 'space-comment', 'change-request-comments'],
  users: ['users'],
  'OpenAPI specs': ['openapi', 'openapi-versions'],
  'site insights': ['site-insights'],
  translations: ['translations', 'glossary'],
  'content imports': ['imports'],
  'Ask and agents (issue 34)': ['organization-ask', 'site-ask', 'site-ai', 'site-questions', 'site-agent-feedback', 'site-agent-settings', 'site-mcp-servers', 'site-context', 'agents'],
  'integrations (issue 35)': ['integrations', 'space-integrations'],
  sites: ['sites', 'site-sections', 'site-section-groups', 'site-external-links', 'site-channels', 'custom-hostnames', 'custom-fonts', 'storage', 'site-spaces', 'site-structure', 'site-share-links', 'site-publishing-auth', 'site-customization', 'site-redirects', 'site-preview', 'site-users', 'site-permissions', 'urls'],
};

/** Why an operation of a built area is left out. Anything missing and not listed here says so. */
const LEFT_OUT: Record<string, string> = {
  listOrganizationAgentConversations: 'AI agent conversations are not built (no AI assistant)',
  deleteOrganizationAgentConversation: 'AI agent conversations are not built (no AI assistant)',
  updateOrganizationAgentConversation: 'AI agent conversations are not built (no AI assistant)',
  provisionOrganizationAgentConversation: 'AI agent conversations are not built (no AI assistant)',
  listChangeRequestConversations: 'links to Assistant conversations are not built (the conversations module holds support conversations, not Assistant ones)',
  deleteChangeRequestConversation: 'links to Assistant conversations are not built (the conversations module holds support conversations, not Assistant ones)',
  updateChangeRequestConversation: 'links to Assistant conversations are not built (the conversations module holds support conversations, not Assistant ones)',
  createUserNotificationsToken: 'no real-time notification service to issue tokens for',
};

interface Operation {
  area: string;
  operationId: string;
  method: string;
  path: string;
}

function specOperations(): Operation[] {
  const spec = JSON.parse(readFileSync(join(__dirname, '../node_modules/gitbook-api-current/spec/openapi.json'), 'utf8'));
  const areaOf = new Map(Object.entries(AREAS).flatMap(([area, tags]) => tags.map((tag) => [tag, area] as const)));
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, { operationId?: string; tags?: string[] }>>(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op.operationId) continue;
      const area = (op.tags ?? []).map((tag) => areaOf.get(tag)).find(Boolean);
      if (area) out.push({ area, operationId: op.operationId, method: method.toUpperCase(), path });
    }
  }
  return out;
}

/** Every `METHOD /v1/path` the app routes, from the controllers of every module AppModule imports. */
function appRoutes(): Set<string> {
  const routes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (entry: unknown) => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    const dynamic = typeof entry === 'object' && 'module' in (entry as object) ? (entry as { module: unknown; imports?: unknown[]; controllers?: unknown[] }) : null;
    const moduleClass = dynamic ? dynamic.module : entry;
    const imports = [...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, moduleClass as object) ?? []), ...(dynamic?.imports ?? [])];
    const controllers = [...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, moduleClass as object) ?? []), ...(dynamic?.controllers ?? [])];
    for (const controller of controllers) addController(controller, routes);
    for (const imported of imports) visit(typeof imported === 'function' || (imported && typeof imported === 'object' && !('then' in imported)) ? imported : null);
  };
  visit(AppModule);
  return routes;
}

function addController(controller: { prototype: Record<string, unknown> }, routes: Set<string>) {
  const bases = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
  for (const name of Object.getOwnPropertyNames(controller.prototype)) {
    const handler = controller.prototype[name];
    if (typeof handler !== 'function' || name === 'constructor') continue;
    const method = Reflect.getMetadata(METHOD_METADATA, handler);
    if (method === undefined) continue;
    for (const base of bases) {
      for (const path of [Reflect.getMetadata(PATH_METADATA, handler) ?? ''].flat() as string[]) {
        const full = `/${[base, path].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/\/$/, '');
        routes.add(`${RequestMethod[method]} ${normalize(full)}`);
      }
    }
  }
}

/** `:spaceId` and `{spaceId}` alike; a trailing `*pagePath` catch-all is `{pagePath}`. */
function normalize(path: string): string {
  return path.replace(/\*[A-Za-z]+$/, '{}').replace(/:[A-Za-z]+/g, '{}').replace(/\{[A-Za-z]+\}/g, '{}');
}

function table(): string {
  const routes = appRoutes();
  const rows = specOperations().map((op) => {
    const exists = routes.has(`${op.method} ${normalize(op.path)}`);
    const note = exists ? '' : LEFT_OUT[op.operationId] ?? 'not built yet';
    return { ...op, exists, note };
  });
  rows.sort((a, b) => Object.keys(AREAS).indexOf(a.area) - Object.keys(AREAS).indexOf(b.area) || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const built = rows.filter((r) => r.exists).length;
  const lines = [
    `${built} of ${rows.length} operations of the current client in these areas exist (generated by \`scripts/client-parity.ts\`).`,
    '',
    '| Area | Operation | Method and path | Here | Why not |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.area} | \`${r.operationId}\` | \`${r.method} ${r.path}\` | ${r.exists ? 'yes' : 'no'} | ${r.note} |`),
  ];
  return lines.join('\n');
}

const START = '<!-- client-parity:start -->';
const END = '<!-- client-parity:end -->';

function main() {
  const generated = table();
  const mode = process.argv[2];
  if (!mode) {
    console.log(generated);
    return;
  }
  const readmePath = join(__dirname, '../docs/security.md');
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/security.md has no ${START} ... ${END} block`);
  const updated = `${readme.slice(0, start + START.length)}\n${generated}\n${readme.slice(end)}`;
  if (mode === '--write') writeFileSync(readmePath, updated);
  else if (mode === '--check' && updated !== readme) {
    console.error('The client parity table of docs/security.md is out of date: run scripts/client-parity.ts --write');
    process.exit(1);
  }
}

main();
