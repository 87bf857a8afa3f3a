import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError } from '@app/common';
import { ContentReadsService } from '../../content-api/application/content-reads.service';
import type { JSONDocument } from '../../content/domain/markdown';
import { computedSpecs } from '../../content/domain/revision-content';
import { User } from '../../identity/domain/user';
import { OpenAPISpecsService } from '../../openapi/application/openapi-specs.service';
import { ReferenceModels } from '../../openapi/application/reference-models';
import { ReferenceModel } from '../../openapi/domain/reference-model';
import { SpacesService } from '../../spaces/application/spaces.service';
import { OpenAPIDocumentProps, parseDocumentSource, parseRevisionSource } from '../domain/computed-source';
import { ComputedPage, computeDocument, computeRevisionPages } from '../domain/openapi-computation';

export interface ComputedRevision {
  spaceId: string;
  spec: string;
  pages: Array<ComputedPage & { document: JSONDocument }>;
}

/**
 * Computed content (GitBook's `getComputedRevision` and `getComputedDocument`): what a computed
 * page of a space expands to, from the current version of an OpenAPI spec of the space's
 * organization. Whoever may read the space may compute its content, as readers of a published
 * site see its generated pages: from any spec if they may read the organization's specs
 * (members), else from a public spec or one the space's current content computes pages from
 * (guests, a site's readers). A space the caller may not see is "not found", and so is a spec
 * the caller may not use or the organization does not have. Nothing is stored.
 */
@Injectable()
export class ComputedContentService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly content: ContentReadsService,
    private readonly specs: OpenAPISpecsService,
    private readonly references: ReferenceModels,
  ) {}

  async revision(caller: User, spaceId: string, source: unknown, seed: string): Promise<ComputedRevision> {
    const { space } = await this.spaces.get(caller, spaceId);
    const parsed = parseRevisionSource(source);
    const model = await this.model(caller, space.id, space.organizationId, parsed.spec);
    const pages = computeRevisionPages(model, parsed.props, seed).map((page) => ({ ...page, document: this.compute(model, parsed.spec, page.props) }));
    return { spaceId: space.id, spec: parsed.spec, pages };
  }

  async document(caller: User, spaceId: string, source: unknown): Promise<JSONDocument> {
    const { space } = await this.spaces.get(caller, spaceId);
    const parsed = parseDocumentSource(source);
    return this.compute(await this.model(caller, space.id, space.organizationId, parsed.spec), parsed.spec, parsed.props);
  }

  private compute(model: ReferenceModel, spec: string, props: OpenAPIDocumentProps): JSONDocument {
    const document = computeDocument(model, spec, props);
    if (document) return document;
    const what = props.doc === 'operation' ? `Operation ${props.method.toUpperCase()} ${props.page}` : props.doc === 'models' ? 'Models' : `Tag "${props.page}"`;
    throw new NotFoundError(`${what} not found in OpenAPI spec "${spec}"`);
  }

  private async model(caller: User, spaceId: string, organizationId: string, spec: string): Promise<ReferenceModel> {
    const current = (await this.references.current(organizationId, [spec])).get(spec);
    const visibility = current?.visibility ?? (await this.references.visibility(organizationId, spec));
    if (visibility === null || !(await this.mayUse(caller, spaceId, organizationId, spec, visibility))) throw new NotFoundError(`OpenAPI spec "${spec}" not found`);
    if (!current) throw new ConflictError(`OpenAPI spec "${spec}" has no processed version yet: compute its content once processing has succeeded`);
    return current.model;
  }

  private async mayUse(caller: User, spaceId: string, organizationId: string, spec: string, visibility: string): Promise<boolean> {
    if (visibility === 'public' || (await this.specs.readable(caller, organizationId))) return true;
    const { revision } = await this.content.spaceContent(caller, spaceId);
    return computedSpecs(revision.content.pages).includes(spec);
  }
}
