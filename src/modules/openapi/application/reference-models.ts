import { Injectable } from '@nestjs/common';
import { ReferenceModel, referenceModel } from '../domain/reference-model';
import { OpenAPISpecsRepository } from '../infrastructure/openapi-specs.repository';

/** A spec's current version as readers use it. */
export interface CurrentReference {
  versionId: string;
  model: ReferenceModel;
  /** The spec's visibility (`private` or `public`). */
  visibility: string;
}

const CACHED_VERSIONS = 50;

/**
 * The reference models of specs' current versions, by slug. Versions are immutable, so a model is
 * built once per version (the newest 50 kept) and the bundled document is loaded only to build it:
 * answering costs one query on the specs when every model is cached.
 */
@Injectable()
export class ReferenceModels {
  private readonly models = new Map<string, ReferenceModel>();

  constructor(private readonly repository: OpenAPISpecsRepository) {}

  /** Slugs without a spec, or whose spec has no processed version, are absent from the answer. */
  async current(organizationId: string, slugs: string[]): Promise<Map<string, CurrentReference>> {
    const out = new Map<string, CurrentReference>();
    const specs = await this.repository.findBySlugs(organizationId, [...new Set(slugs)]);
    for (const spec of specs) {
      if (!spec.lastVersionId) continue;
      const model = await this.model(spec.id, spec.lastVersionId);
      if (model) out.set(spec.slug, { versionId: spec.lastVersionId, model, visibility: spec.visibility });
    }
    return out;
  }

  /** The visibility of the organization's spec of this slug; null when it has none. */
  async visibility(organizationId: string, slug: string): Promise<string | null> {
    return (await this.repository.findBySlug(organizationId, slug))?.visibility ?? null;
  }

  private async model(specId: string, versionId: string): Promise<ReferenceModel | null> {
    const cached = this.models.get(versionId);
    if (cached) {
      this.models.delete(versionId);
      this.models.set(versionId, cached);
      return cached;
    }
    const version = await this.repository.findVersionContent(specId, versionId);
    if (!version) return null;
    const model = referenceModel(version.document as Record<string, unknown>);
    if (this.models.size >= CACHED_VERSIONS) this.models.delete(this.models.keys().next().value!);
    this.models.set(versionId, model);
    return model;
  }
}
