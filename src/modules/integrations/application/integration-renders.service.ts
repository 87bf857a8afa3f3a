import { Injectable } from '@nestjs/common';
import { BadGatewayError, InvalidError, NotFoundError } from '@app/common';
import { currentContractSchema } from '../../../core/contract/gitbook-schemas';
import type { User } from '../../identity/domain/user';
import { SpacesService } from '../../spaces/application/spaces.service';
import { InstallationOrm } from '../infrastructure/installation.orm';
import { InstallationsRepository } from '../infrastructure/installations.repository';
import { IntegrationOrm } from '../infrastructure/integration.orm';
import { IntegrationsRepository } from '../infrastructure/integrations.repository';
import { IntegrationCalls } from './integration-calls';
import { IntegrationsService } from './integrations.service';
import { cspDirectives, safeSources } from '../domain/integration-manifest';

export interface RenderRequest {
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  context: { type: string; spaceId?: string; [key: string]: unknown };
  action?: Record<string, unknown>;
}

/** A block of a document to render on a published page (with the state and action of a pressed button). */
export interface PageBlock {
  integration: string;
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  action?: Record<string, unknown>;
}

/** A block's render for a page: `absent` when the integration is not installed on the space (nothing shows), `failed` for a placeholder. */
export interface PageBlockRender {
  outcome: 'rendered' | 'absent' | 'failed';
  output?: unknown;
  /** Hosts the block may frame (webframes): the service's, and those of the integration's `frame-src`. */
  frameHosts: string[];
}

/** How long a block's first render (no state, no action) is reused. */
export const BLOCK_CACHE_MS = 30_000;
const PAGE_LOOKUP_MS = 5000;
const API_LIMITS = { timeoutMs: 5000, maxBytes: 256 * 1024 };
const validOutput = currentContractSchema('ContentKitRenderOutput');

/**
 * Integration blocks: a render request goes to the integration's service installed on the
 * document's space (signed, limited in time and size), and its answer must be a ContentKit output
 * as GitBook's contract defines it. First renders are cached per integration version, installation,
 * component and props for a short time; renders with state or an action (a button pressed) never are.
 */
@Injectable()
export class IntegrationRendersService {
  private readonly cache = new Map<string, { output: unknown; expiresAt: number }>();
  private readonly lookups = new Map<string, { value: { byName: Map<string, IntegrationOrm | null>; installed: Map<string, InstallationOrm> }; expiresAt: number }>();

  constructor(
    private readonly integrationsService: IntegrationsService,
    private readonly integrations: IntegrationsRepository,
    private readonly installations: InstallationsRepository,
    private readonly spaces: SpacesService,
    private readonly calls: IntegrationCalls,
  ) {}

  /** renderIntegrationUI: for callers who can read the document's space (members, site tokens, installation tokens). */
  async render(caller: User, name: string, request: RenderRequest): Promise<unknown> {
    const { integration } = await this.integrationsService.get(caller, name);
    if (request.context?.type !== 'document' || typeof request.context.spaceId !== 'string') {
      throw new InvalidError('This server renders integration UI in documents only: `context` must be {type: "document", spaceId, ...}');
    }
    const space = await this.spaces.get(caller, request.context.spaceId);
    const installation = await this.installationOn(integration, space.space.organizationId, space.space.id);
    if (!installation) throw NotFoundError.of('Integration installation on space', request.context.spaceId);
    return this.call(integration, installation, request, API_LIMITS);
  }

  /**
   * A published page's blocks, rendered at once within `timeoutMs` each. A block whose integration
   * is not installed on the space is `absent`; one whose service failed, answered too late or
   * answered an invalid output is `failed` (the page shows a placeholder, never an error).
   */
  async renderPageBlocks(organizationId: string, spaceId: string, blocks: PageBlock[], timeoutMs: number): Promise<PageBlockRender[]> {
    const { byName, installed } = await this.pageLookups(organizationId, spaceId, [...new Set(blocks.map((b) => b.integration))]);
    return Promise.all(
      blocks.map(async (block): Promise<PageBlockRender> => {
        const integration = byName.get(block.integration);
        const installation = integration ? installed.get(integration.id) : null;
        if (!integration || !installation) return { outcome: 'absent', frameHosts: [] };
        const frameHosts = frameHostsOf(integration);
        try {
          const request: RenderRequest = { componentId: block.componentId, props: block.props, context: { type: 'document', spaceId, editable: false, theme: 'light' }, ...(block.state ? { state: block.state } : {}), ...(block.action ? { action: block.action } : {}) };
          return { outcome: 'rendered', output: await this.call(integration, installation, request, { timeoutMs, maxBytes: API_LIMITS.maxBytes }), frameHosts };
        } catch {
          return { outcome: 'failed', frameHosts };
        }
      }),
    );
  }

  /**
   * The integrations a page names and the installations reaching its space, kept for
   * PAGE_LOOKUP_MS: pages are reused longer than that anyway, and the API's renders never use it
   * (an uninstalled integration answers 404 there at once).
   */
  private async pageLookups(organizationId: string, spaceId: string, names: string[]): Promise<{ byName: Map<string, IntegrationOrm | null>; installed: Map<string, InstallationOrm> }> {
    const key = `${organizationId}:${spaceId}:${names.sort().join(',')}`;
    const now = Date.now();
    const hit = this.lookups.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const [found, reaching] = await Promise.all([Promise.all(names.map((name) => this.integrations.findByName(name))), this.installations.installationsReaching('space', spaceId, organizationId)]);
    const value = { byName: new Map(names.map((name, i) => [name, found[i]])), installed: new Map(reaching.map((n) => [n.integrationId, n])) };
    if (this.lookups.size > 5000) this.lookups.clear();
    this.lookups.set(key, { value, expiresAt: now + PAGE_LOOKUP_MS });
    return value;
  }

  private async installationOn(integration: IntegrationOrm, organizationId: string, spaceId: string): Promise<InstallationOrm | null> {
    const reaching = await this.installations.installationsReaching('space', spaceId, organizationId);
    return reaching.find((n) => n.integrationId === integration.id) ?? null;
  }

  private async call(integration: IntegrationOrm, installation: InstallationOrm, request: RenderRequest, limits: { timeoutMs: number; maxBytes: number }): Promise<unknown> {
    const cacheable = !request.state && !request.action;
    const key = cacheable ? `${integration.id}:${integration.version}:${installation.id}:${request.componentId}:${stableJson(request.props)}` : null;
    const now = Date.now();
    const hit = key ? this.cache.get(key) : undefined;
    if (hit && hit.expiresAt > now) return hit.output;
    const body = JSON.stringify({
      type: 'ui_render',
      eventId: `render-${now}`,
      installationId: installation.id,
      ...(request.context.spaceId ? { spaceId: request.context.spaceId } : {}),
      componentId: request.componentId,
      props: request.props ?? {},
      state: request.state ?? {},
      context: request.context,
      ...(request.action ? { action: request.action } : {}),
    });
    const output = await this.calls.postJson(integration, '/render', body, installation, limits);
    const problems = validOutput(output);
    if (problems.length) throw new BadGatewayError(`The integration "${integration.name}" answered an invalid ContentKit output: ${problems.join('; ')}`);
    if (key) {
      if (this.cache.size > 5000) this.cache.clear();
      this.cache.set(key, { output, expiresAt: now + BLOCK_CACHE_MS });
    }
    return output;
  }
}

function frameHostsOf(integration: IntegrationOrm): string[] {
  // Webframes load over https only (the content policy of reader pages): an http endpoint (development) frames nothing of its own.
  const endpoint = new URL(integration.endpoint);
  const hosts = endpoint.protocol === 'https:' ? [endpoint.hostname] : [];
  for (const source of safeSources(cspDirectives(integration.manifest.contentSecurityPolicy).get('frame-src'))) {
    if (source.startsWith('https://')) hosts.push(new URL(source.replace('*.', '')).hostname);
  }
  return [...new Set(hosts)];
}

/** JSON with sorted keys, so equal props make one cache key. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value ?? null);
}
