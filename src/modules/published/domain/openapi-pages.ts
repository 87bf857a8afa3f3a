import { slugify } from '../../content/domain/markdown/slug';
import { type PageNode, openapiSpecOf } from '../../content/domain/revision-content';
import type { ReferenceModel, ReferenceOperation } from '../../openapi/domain/reference-model';
import { renderOperation } from '../../openapi/domain/render-reference';
import { escapeHtml } from '@app/common';
import type { ReaderPage } from './page-index';

/**
 * The pages readers see for a computed `builtin:openapi` page: one per tag (GitBook's default
 * grouping, untagged operations under "Other") or, with `props.grouping: by-operation`, one per
 * operation; each renders its operations (method, path, parameters, request body, responses,
 * examples). Without a processed spec, one page saying so.
 */
export function openapiPages(node: PageNode, model: ReferenceModel | null): ReaderPage[] {
  const spec = openapiSpecOf(node.computed) ?? node.title;
  const base = { kind: 'document' as const, createdAt: node.createdAt, updatedAt: node.updatedAt, hidden: node.hidden, pages: [] as ReaderPage[] };
  if (!model || !model.operations.length) {
    const message = `The API reference “${spec}” is not available yet: its OpenAPI specification has not been processed.`;
    return [{ ...base, id: node.id, title: node.title, slug: node.slug, generated: { html: `<div class="hint hint-warning" role="note"><p>${escapeHtml(message)}</p></div>`, markdown: message } }];
  }
  const byOperation = node.computed?.props?.grouping === 'by-operation';
  const groups = new Map<string, ReferenceOperation[]>();
  for (const operation of model.operations) {
    const keys = byOperation ? [operation.summary || `${operation.method} ${operation.path}`] : operation.tags.length ? [operation.tags[0]] : ['Other'];
    for (const key of keys) groups.set(key, [...(groups.get(key) ?? []), operation]);
  }
  const used = new Set<string>();
  return [...groups].map(([title, operations]) => {
    const baseSlug = slugify(byOperation ? operations[0].id || title : title) || 'operations';
    let slug = baseSlug;
    for (let n = 2; used.has(slug); n++) slug = `${baseSlug}-${n}`;
    used.add(slug);
    return {
      ...base,
      id: `${node.id}~${slug}`,
      title,
      slug,
      generated: {
        html: operations.map(renderOperation).join('\n'),
        markdown: operations.map((op) => `## ${op.method} ${op.path}\n\n${op.summary ?? ''}${op.description ? `\n\n${op.description}` : ''}`.trim()).join('\n\n'),
      },
    };
  });
}
