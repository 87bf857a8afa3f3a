import { type PageNode, openapiSpecOf } from '../../content/domain/revision-content';
import { groupOperations } from '../../openapi/domain/operation-groups';
import type { ReferenceModel, ReferenceSchema } from '../../openapi/domain/reference-model';
import { renderOperation, renderSchemas, renderWebhook } from '../../openapi/domain/render-reference';
import { escapeHtml } from '@app/common';
import type { ReaderPage } from './page-index';

/**
 * The pages readers see for a computed `builtin:openapi` page: one per tag (GitBook's default
 * grouping, untagged operations under "Other") or, with `props.grouping: by-operation`, one per
 * operation; each renders its operations (method, path, parameters, request body, responses,
 * examples); then a page of the spec's webhooks (OpenAPI 3.1) if it has any; with `props.models`, a last page of
 * the spec's schemas. Without a processed spec,
 * one page saying so.
 */
export function openapiPages(node: PageNode, model: ReferenceModel | null): ReaderPage[] {
  const spec = openapiSpecOf(node.computed) ?? node.title;
  const base = { kind: 'document' as const, createdAt: node.createdAt, updatedAt: node.updatedAt, hidden: node.hidden, pages: [] as ReaderPage[] };
  if (!model || (!model.operations.length && !model.webhooks.length)) {
    const message = `The API reference “${spec}” is not available yet: its OpenAPI specification has not been processed.`;
    return [{ ...base, id: node.id, title: node.title, slug: node.slug, generated: { html: `<div class="hint hint-warning" role="note"><p>${escapeHtml(message)}</p></div>`, markdown: message } }];
  }
  const byOperation = node.computed?.props?.grouping === 'by-operation';
  const pages: ReaderPage[] = groupOperations(model, byOperation).map(({ title, slug, operations }) => ({
    ...base,
    id: `${node.id}~${slug}`,
    title,
    slug,
    generated: {
      html: operations.map((op) => renderOperation(op)).join('\n'),
      markdown: operations.map((op) => `## ${op.method} ${op.path}\n\n${op.summary ?? ''}${op.description ? `\n\n${op.description}` : ''}`.trim()).join('\n\n'),
    },
  }));
  const free = (wanted: string) => {
    const slugs = new Set(pages.map((page) => page.slug));
    let slug = wanted;
    for (let n = 2; slugs.has(slug); n++) slug = `${wanted}-${n}`;
    return slug;
  };
  if (model.webhooks.length) {
    const slug = free('webhooks');
    pages.push({
      ...base,
      id: `${node.id}~${slug}`,
      title: 'Webhooks',
      slug,
      generated: {
        html: model.webhooks.map((hook) => renderWebhook(hook)).join('\n'),
        markdown: model.webhooks.map((hook) => `## Webhook ${hook.path} (${hook.method})\n\n${hook.summary ?? ''}${hook.description ? `\n\n${hook.description}` : ''}`.trim()).join('\n\n'),
      },
    });
  }
  if (node.computed?.props?.models === true && model.schemas.length) {
    const slug = free('models');
    pages.push({
      ...base,
      id: `${node.id}~${slug}`,
      title: 'Models',
      slug,
      generated: {
        html: renderSchemas(model.schemas),
        markdown: model.schemas.map(schemaMarkdown).join('\n\n'),
      },
    });
  }
  return pages;
}

/** `## Pet` (its type), its description, then a line per property. */
function schemaMarkdown(schema: ReferenceSchema): string {
  const properties = schema.properties.map((p) => `- \`${p.name}\`${p.required ? ' (required)' : ''}: ${p.type}${p.description ? `. ${p.description}` : ''}`);
  return [`## ${schema.name} (${schema.type})`, schema.description, properties.join('\n')].filter(Boolean).join('\n\n');
}
