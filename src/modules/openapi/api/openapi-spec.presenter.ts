import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { SpecView } from '../application/openapi-specs.service';
import { OpenAPISpecVersionOrm } from '../infrastructure/openapi-spec-version.orm';
import { OpenAPISpecOrm } from '../infrastructure/openapi-spec.orm';
import { VersionSummary } from '../infrastructure/openapi-specs.repository';

/** GitBook's `OpenAPISpec`, `OpenAPISpecVersion`, `OpenAPISpecContent` and `OpenAPISpecRawContent`. */
@Injectable()
export class OpenAPISpecPresenter {
  constructor(private readonly urls: Urls) {}

  present({ spec, canEdit }: SpecView) {
    return {
      object: 'openapi-spec' as const,
      id: spec.id,
      createdAt: spec.createdAt.toISOString(),
      updatedAt: spec.updatedAt.toISOString(),
      slug: spec.slug,
      ...(spec.sourceUrl ? { sourceURL: spec.sourceUrl } : {}),
      processingState: spec.processingState,
      visibility: spec.visibility,
      ...(spec.lastVersionId ? { lastVersion: spec.lastVersionId } : {}),
      ...(spec.lastProcessedAt ? { lastProcessedAt: spec.lastProcessedAt.toISOString() } : {}),
      ...(spec.lastProcessErrorCode ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
      lastProcessedErrors: spec.lastProcessedErrors,
      lastProcessedErrorCount: spec.lastProcessedErrorCount,
      permissions: { view: true, edit: canEdit },
      urls: {
        location: this.location(spec),
        app: this.urls.app(`/o/${spec.organizationId}/openapi/${spec.slug}`),
        ...(spec.visibility === 'public' ? { published: this.publicUrl(spec) } : {}),
      },
    };
  }

  presentVersion(spec: OpenAPISpecOrm, version: VersionSummary) {
    return {
      object: 'openapi-spec-version' as const,
      id: version.id,
      createdAt: version.createdAt.toISOString(),
      url: this.versionUrl(spec, version.id),
      urls: { location: `${this.location(spec)}/versions/${version.id}` },
    };
  }

  /**
   * Both GitBook shapes: 0.146's `url` and the current `urls`. `filesystem` is what GitBook's API
   * sends and its renderer reads (as @gitbook/openapi-parser's Filesystem): a list of files, here one,
   * the bundled document as its entry point.
   */
  presentContent(spec: OpenAPISpecOrm, version: OpenAPISpecVersionOrm) {
    const url = this.versionUrl(spec, version.id);
    return {
      filesystem: [{ dir: '.', isEntrypoint: true, references: [] as string[], filename: 'openapi.json', specification: version.document }],
      url,
      urls: { source: spec.sourceUrl ?? url, public: spec.visibility === 'public' ? `${this.publicUrl(spec)}/openapi.json` : null },
    };
  }

  presentRaw(version: OpenAPISpecVersionOrm) {
    return { text: version.rawText, format: version.rawFormat };
  }

  /** Where readers without a token find a public spec (a rendered reference; `/openapi.json` beside it). */
  publicUrl(spec: OpenAPISpecOrm): string {
    return this.urls.root(`/openapi/${spec.organizationId}/${spec.slug}`);
  }

  private location(spec: OpenAPISpecOrm): string {
    return this.urls.api(`/orgs/${spec.organizationId}/openapi/${spec.slug}`);
  }

  /** Public specs: the public document of that version; private ones: the API's content read. */
  private versionUrl(spec: OpenAPISpecOrm, versionId: string): string {
    if (spec.visibility === 'public') return `${this.publicUrl(spec)}/versions/${versionId}/openapi.json`;
    return `${this.location(spec)}/versions/${versionId}/content`;
  }
}
