import { createHash } from 'node:crypto';
import { assignKeys, markdownToDocument } from '../../content/domain/markdown';
import type { DocumentBlock, JSONDocument } from '../../content/domain/markdown';
import { slugify } from '../../content/domain/markdown/slug';
import { groupOperations, operationTitle, tagOf } from '../../openapi/domain/operation-groups';
import type { ReferenceModel, ReferenceOperation } from '../../openapi/domain/reference-model';
import type { OpenAPIDocumentProps, OpenAPIRevisionProps } from './computed-source';

/** One page of a computed OpenAPI revision: its body is computed from `props`. */
export interface ComputedPage {
  id: string;
  /** The seed its document's ids derive from. */
  seed: string;
  title: string;
  slug: string;
  props: OpenAPIDocumentProps;
}

/**
 * The pages a `builtin:openapi` source expands to, as published sites show them (the same
 * grouping, see groupOperations): a page per tag (`doc: tag`) or per operation (`doc:
 * operation`), then, with `models`, one page of the spec's schemas. OpenAPI 3.1 webhooks join
 * their tag's page (a tag only webhooks have gets its own), or, grouped by operation, get a page
 * each (`method: hook`, `page`: the webhook's name). Ids derive from the seed, so the same source
 * and seed always give the same pages.
 */
export function computeRevisionPages(model: ReferenceModel, props: OpenAPIRevisionProps, seed: string): ComputedPage[] {
  const byOperation = props.grouping === 'by-operation';
  const pages = groupOperations(model, byOperation).map(({ title, slug, operations }): Omit<ComputedPage, 'id' | 'seed'> => {
    const [first] = operations;
    return {
      title,
      slug,
      props: byOperation
        ? { doc: 'operation', page: first.path, method: first.method.toLowerCase(), ...(first.deprecated ? { deprecated: true } : {}) }
        : { doc: 'tag', page: title },
    };
  });
  const taken = new Set(pages.map((page) => page.slug));
  const free = (base: string) => {
    let slug = base || 'webhook';
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };
  for (const webhook of model.webhooks) {
    if (byOperation) pages.push({ title: operationTitle(webhook), slug: free(slugify(webhook.id || webhook.path)), props: { doc: 'operation', page: webhook.path, method: 'hook' } });
    else if (!pages.some((page) => page.props.doc === 'tag' && page.props.page === tagOf(webhook))) pages.push({ title: tagOf(webhook), slug: free(slugify(tagOf(webhook))), props: { doc: 'tag', page: tagOf(webhook) } });
  }
  if (props.models && model.schemas.length) {
    const slugs = new Set(pages.map((page) => page.slug));
    let slug = 'models';
    for (let n = 2; slugs.has(slug); n++) slug = `models-${n}`;
    pages.push({ title: 'Models', slug, props: { doc: 'models' } });
  }
  return pages.map((page) => {
    const id = derivedId(seed, page.slug);
    return { ...page, id, seed: id };
  });
}

/**
 * The document of one computed page: the tag's description and its operations (`tag`), the
 * operations alone (`operations`), the description alone (`info`), one operation with its
 * description (`operation`; the block is `headless`, the page shows its title), or every schema
 * (`models`). Operations are GitBook's `openapi-operation` blocks referring to the spec by slug,
 * which readers render from the spec's current version. Null: the spec has no such tag or
 * operation.
 */
export function computeDocument(model: ReferenceModel, spec: string, props: OpenAPIDocumentProps): JSONDocument | null {
  const ref = { kind: 'openapi', spec };
  let nodes: DocumentBlock[];
  switch (props.doc) {
    case 'models':
      nodes = model.schemas.length ? [{ object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref, schemas: model.schemas.map((schema) => schema.name), grouped: true } }] : [];
      break;
    case 'operation': {
      if (props.method === 'hook') {
        const webhook = model.webhooks.find((candidate) => candidate.path === props.page);
        if (!webhook) return null;
        nodes = [...markdownBlocks(webhook.description), webhookBlock(ref, webhook, true)];
        break;
      }
      const operation = model.operations.find((candidate) => candidate.path === props.page && candidate.method.toLowerCase() === props.method);
      if (!operation) return null;
      nodes = [...markdownBlocks(operation.description), operationBlock(ref, operation, true)];
      break;
    }
    default: {
      const operations = model.operations.filter((operation) => tagOf(operation) === props.page);
      const webhooks = model.webhooks.filter((webhook) => tagOf(webhook) === props.page);
      const tag = model.tags.find((candidate) => candidate.name === props.page);
      if (!tag && !operations.length && !webhooks.length) return null;
      const description = props.doc === 'operations' ? [] : markdownBlocks(tag?.description);
      const blocks = props.doc === 'info' ? [] : [...operations.map((operation) => operationBlock(ref, operation, false)), ...webhooks.map((webhook) => webhookBlock(ref, webhook, false))];
      nodes = [...description, ...blocks];
    }
  }
  assignKeys(nodes, '');
  return { object: 'document', data: {}, nodes };
}

function operationBlock(ref: { kind: string; spec: string }, operation: ReferenceOperation, headless: boolean): DocumentBlock {
  const data = { ref, path: operation.path, method: operation.method.toLowerCase(), ...(headless ? { headless: true } : {}) };
  return { object: 'block', type: 'openapi-operation', isVoid: true, data };
}

/** GitBook's `openapi-webhook` block: the webhook by name and method. */
function webhookBlock(ref: { kind: string; spec: string }, webhook: ReferenceOperation, headless: boolean): DocumentBlock {
  const data = { ref, name: webhook.path, method: webhook.method.toLowerCase(), ...(headless ? { headless: true } : {}) };
  return { object: 'block', type: 'openapi-webhook', isVoid: true, data };
}

function markdownBlocks(markdown: string | undefined): DocumentBlock[] {
  return markdown ? markdownToDocument(markdown).nodes : [];
}

function derivedId(seed: string, slug: string): string {
  return createHash('sha256').update(`${seed}\u0000${slug}`).digest('hex').slice(0, 20);
}
