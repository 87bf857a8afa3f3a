import type { DocumentBlock, JSONDocument } from './markdown/types';

const OPENAPI_BLOCKS = new Set(['openapi-operation', 'openapi-schemas', 'openapi-webhook']);

/**
 * The slugs of the organization's OpenAPI specs a document shows something of: its operation,
 * schemas and webhook blocks, in GitBook's shape (`ref: {kind: 'openapi', spec}`) or as the markdown
 * tags once stored them (`spec`), anywhere in the document (tabs, expandables, columns).
 */
export function openapiSpecsIn(document: JSONDocument): string[] {
  const found = new Set<string>();
  const visit = (nodes: unknown[] | undefined) => {
    for (const node of (nodes ?? []) as DocumentBlock[]) {
      if (node?.object !== 'block') continue;
      if (OPENAPI_BLOCKS.has(node.type)) {
        const data = node.data as { spec?: unknown; ref?: { kind?: unknown; spec?: unknown } } | undefined;
        const spec = data?.ref?.kind === 'openapi' ? data.ref.spec : data?.spec;
        if (typeof spec === 'string' && spec) found.add(spec);
      }
      visit(node.nodes);
      for (const fragment of (node as { fragments?: Array<{ nodes?: unknown[] }> }).fragments ?? []) visit(fragment.nodes);
    }
  };
  visit(document.nodes);
  return [...found];
}
