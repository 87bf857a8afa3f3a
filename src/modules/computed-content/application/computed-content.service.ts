import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError } from '@app/common';
import type { JSONDocument } from '../../content/domain/markdown';
import { User } from '../../identity/domain/user';
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
 * site see its generated pages; a space the caller may not see is "not found", and so is a spec
 * slug the organization does not have. Nothing is stored.
 */
@Injectable()
export class ComputedContentService {
  constructor(
    private readonly spaces: SpacesService,
    private readonly references: ReferenceModels,
  ) {}

  async revision(caller: User, spaceId: string, source: unknown, seed: string): Promise<ComputedRevision> {
    const { space } = await this.spaces.get(caller, spaceId);
    const parsed = parseRevisionSource(source);
    const model = await this.model(space.organizationId, parsed.spec);
    const pages = computeRevisionPages(model, parsed.props, seed).map((page) => ({ ...page, document: this.compute(model, parsed.spec, page.props) }));
    return { spaceId: space.id, spec: parsed.spec, pages };
  }

  async document(caller: User, spaceId: string, source: unknown): Promise<JSONDocument> {
    const { space } = await this.spaces.get(caller, spaceId);
    const parsed = parseDocumentSource(source);
    return this.compute(await this.model(space.organizationId, parsed.spec), parsed.spec, parsed.props);
  }

  private compute(model: ReferenceModel, spec: string, props: OpenAPIDocumentProps): JSONDocument {
    const document = computeDocument(model, spec, props);
    if (document) return document;
    const what = props.doc === 'operation' ? `Operation ${props.method.toUpperCase()} ${props.page}` : props.doc === 'models' ? 'Models' : `Tag "${props.page}"`;
    throw new NotFoundError(`${what} not found in OpenAPI spec "${spec}"`);
  }

  private async model(organizationId: string, spec: string): Promise<ReferenceModel> {
    const current = (await this.references.current(organizationId, [spec])).get(spec);
    if (current) return current.model;
    if (!(await this.references.exists(organizationId, spec))) throw new NotFoundError(`OpenAPI spec "${spec}" not found`);
    throw new ConflictError(`OpenAPI spec "${spec}" has no processed version yet: compute its content once processing has succeeded`);
  }
}
