import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { SiteReaderSpecs } from './site-reader-specs';
import { optionalProvider } from '../../../core/context/optional-provider';
import { APP_CONFIG, AppConfig, CLOCK, Clock, ConflictError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { Transactions, Tx } from '../../../database/transactions';
import { JobOutbox, StagedJobs } from '../../../jobs/outbox/job-outbox';
import { AccessService } from '../../access/application/access.service';
import { atLeast } from '../../access/domain/roles';
import { User } from '../../identity/domain/user';
import { SpecSource, SpecVisibility, assertSlug, assertVisibility, parseSource } from '../domain/openapi-spec';
import { OpenAPISpecVersionOrm } from '../infrastructure/openapi-spec-version.orm';
import { OpenAPISpecOrm } from '../infrastructure/openapi-spec.orm';
import { OpenAPISpecsRepository, VersionSummary } from '../infrastructure/openapi-specs.repository';
import { OpenAPIChanges } from './openapi-changes';
import { ProcessOpenAPISpec } from './openapi.jobs';

export interface SpecView {
  spec: OpenAPISpecOrm;
  canEdit: boolean;
}

/**
 * The organization's OpenAPI specifications. Members read them (guests do not see them: 404);
 * creating, replacing, changing visibility and deleting need the `create` organization role
 * (GitBook's `createOpenAPISpec`). Writing a source stores the spec as `pending` and enqueues
 * its processing; the API never fetches.
 */
@Injectable()
export class OpenAPISpecsService {
  constructor(
    private readonly access: AccessService,
    private readonly repository: OpenAPISpecsRepository,
    private readonly transactions: Transactions,
    private readonly outbox: JobOutbox,
    private readonly changes: OpenAPIChanges,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    modules: ModuleRef,
  ) {
    this.siteReaderSpecs = optionalProvider(modules, SiteReaderSpecs);
  }

  /** Only applications that publish sites provide it. */
  private readonly siteReaderSpecs: () => SiteReaderSpecs | null;

  async list(caller: User, organizationId: string, request: PageRequest): Promise<Page<SpecView>> {
    const canEdit = await this.readAccess(caller, organizationId);
    const page = await this.repository.list(organizationId, request);
    return { ...page, items: page.items.map((spec) => ({ spec, canEdit })) };
  }

  async get(caller: User, organizationId: string, slug: string): Promise<SpecView> {
    if (caller.siteScope) return { spec: await this.findForSiteReader(caller, organizationId, slug), canEdit: false };
    const canEdit = await this.readAccess(caller, organizationId);
    return { spec: await this.find(organizationId, slug), canEdit };
  }

  /** 409 when the slug is taken in the organization. */
  async create(caller: User, organizationId: string, input: { slug: unknown; source: unknown }): Promise<SpecView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const slug = assertSlug(input.slug);
    const source = parseSource(input.source, this.config.openapiMaxBytes);
    const spec = this.newSpec(caller, organizationId, slug, source);
    const staged = await this.transactions.run(async (tx) => {
      if (!(await this.repository.insert(spec, tx))) throw new ConflictError(`slug: "${slug}" is already used by another OpenAPI specification of this organization`);
      return this.stage(spec, tx);
    });
    await this.outbox.release(staged);
    return { spec, canEdit: true };
  }

  /** Creates the spec, or gives an existing one a new source; either way it is processed again. */
  async createOrUpdate(caller: User, organizationId: string, slug: string, input: { source: unknown }): Promise<SpecView & { created: boolean }> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    assertSlug(slug);
    const source = parseSource(input.source, this.config.openapiMaxBytes);
    const outcome = await this.transactions.run(async (tx) => {
      const current = await this.repository.lockBySlug(organizationId, slug, tx);
      if (!current) {
        const spec = this.newSpec(caller, organizationId, slug, source);
        // A concurrent PUT of the same new slug inserted it first: answer as that race's loser.
        if (!(await this.repository.insert(spec, tx))) throw new ConflictError(`"${slug}" was created by another request at the same time; retry`);
        return { spec, created: true, staged: await this.stage(spec, tx) };
      }
      const next = Object.assign(new OpenAPISpecOrm(), current, {
        ...sourceColumns(source),
        processingState: 'pending',
        generation: current.generation + 1,
        updatedAt: this.clock.now(),
      });
      await this.repository.update(current.id, next, tx);
      return { spec: next, created: false, staged: await this.stage(next, tx) };
    });
    await this.outbox.release(outcome.staged);
    return { spec: outcome.spec, created: outcome.created, canEdit: true };
  }

  async setVisibility(caller: User, organizationId: string, slug: string, visibility: unknown): Promise<SpecView> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    const value: SpecVisibility = assertVisibility(visibility);
    const spec = await this.find(organizationId, slug);
    const updatedAt = this.clock.now();
    await this.repository.update(spec.id, { visibility: value, updatedAt });
    return { spec: Object.assign(spec, { visibility: value, updatedAt }), canEdit: true };
  }

  /** True when a spec was deleted (its versions go with it), false when there was none. */
  async delete(caller: User, organizationId: string, slug: string): Promise<boolean> {
    await this.access.requireOrgRole(caller, organizationId, 'create');
    return this.transactions.run(async (tx) => {
      const deleted = await this.repository.delete(organizationId, slug, tx);
      if (deleted) await this.changes.changed(organizationId, tx);
      return deleted;
    });
  }

  async listVersions(caller: User, organizationId: string, slug: string, request: PageRequest): Promise<{ spec: OpenAPISpecOrm; page: Page<VersionSummary> }> {
    const { spec } = await this.get(caller, organizationId, slug);
    return { spec, page: await this.repository.listVersions(spec.id, request) };
  }

  /** A version by id, or `latest` (404 while the spec has none). */
  async version(caller: User, organizationId: string, slug: string, versionId: string): Promise<{ spec: OpenAPISpecOrm; version: VersionSummary }> {
    const { spec } = await this.get(caller, organizationId, slug);
    return { spec, version: await this.findVersion(spec, versionId) };
  }

  async versionContent(caller: User, organizationId: string, slug: string, versionId: string): Promise<{ spec: OpenAPISpecOrm; version: OpenAPISpecVersionOrm }> {
    const { spec } = await this.get(caller, organizationId, slug);
    return { spec, version: await this.findContent(spec, versionId) };
  }

  /** For readers without a token: only public specs exist. */
  async publicContent(organizationId: string, slug: string, versionId = 'latest'): Promise<{ spec: OpenAPISpecOrm; version: OpenAPISpecVersionOrm }> {
    const spec = await this.repository.findBySlug(organizationId, slug);
    if (!spec || spec.visibility !== 'public') throw NotFoundError.of('OpenAPI specification', slug);
    return { spec, version: await this.findContent(spec, versionId) };
  }

  // ------------------------------------------------------------------------------------------

  /** Members may read (guests: 404); returns whether they may also edit. */
  /** Whether the caller may read the organization's specs: its members, not guests (nor a site's readers). */
  async readable(caller: User, organizationId: string): Promise<boolean> {
    const context = await this.access.context(caller, organizationId);
    return context.isMember && context.orgRole !== null;
  }

  private async readAccess(caller: User, organizationId: string): Promise<boolean> {
    const context = await this.access.requireMember(caller, organizationId);
    if (!context.orgRole) throw NotFoundError.of('Organization', organizationId);
    return atLeast(context.orgRole, 'create');
  }

  /**
   * A published site's reader (GitBook's renderer, with the site token) reads the specs its site's
   * content shows, to render their blocks; any other spec of the organization is "not found".
   */
  private async findForSiteReader(reader: User, organizationId: string, slug: string): Promise<OpenAPISpecOrm> {
    const shown = reader.siteScope?.organizationId === organizationId && (await this.siteReaderSpecs()?.usedBy(reader))?.has(slug);
    if (!shown) throw NotFoundError.of('OpenAPI specification', slug);
    return this.find(organizationId, slug);
  }

  private async find(organizationId: string, slug: string): Promise<OpenAPISpecOrm> {
    const spec = await this.repository.findBySlug(organizationId, slug);
    if (!spec) throw NotFoundError.of('OpenAPI specification', slug);
    return spec;
  }

  private async findVersion(spec: OpenAPISpecOrm, versionId: string): Promise<VersionSummary> {
    const id = versionId === 'latest' ? spec.lastVersionId : versionId;
    const version = id ? await this.repository.findVersion(spec.id, id) : null;
    if (!version) throw NotFoundError.of('OpenAPI specification version', versionId);
    return version;
  }

  private async findContent(spec: OpenAPISpecOrm, versionId: string): Promise<OpenAPISpecVersionOrm> {
    const id = versionId === 'latest' ? spec.lastVersionId : versionId;
    const version = id ? await this.repository.findVersionContent(spec.id, id) : null;
    if (!version) throw NotFoundError.of('OpenAPI specification version', versionId);
    return version;
  }

  private newSpec(caller: User, organizationId: string, slug: string, source: SpecSource): OpenAPISpecOrm {
    const now = this.clock.now();
    return Object.assign(new OpenAPISpecOrm(), {
      id: newId(),
      organizationId,
      slug,
      ...sourceColumns(source),
      processingState: 'pending',
      visibility: 'private',
      lastVersionId: null,
      lastProcessedAt: null,
      lastProcessErrorCode: null,
      lastProcessedErrors: [],
      lastProcessedErrorCount: 0,
      generation: 1,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** One job per generation (the job id deduplicates a repeated enqueue of the same request), staged in `tx`. */
  private stage(spec: OpenAPISpecOrm, tx: Tx): Promise<StagedJobs> {
    return this.outbox.stage(tx, ProcessOpenAPISpec, [{ payload: { specId: spec.id, generation: spec.generation, organizationId: spec.organizationId }, options: { jobId: `${spec.id}-${spec.generation}` } }]);
  }
}

function sourceColumns(source: SpecSource): Pick<OpenAPISpecOrm, 'sourceUrl' | 'sourceText'> {
  return 'url' in source ? { sourceUrl: source.url, sourceText: null } : { sourceUrl: null, sourceText: source.text };
}
