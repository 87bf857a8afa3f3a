import { PageNode } from './revision-content';

/** GitBook's page layout, every option on unless the page says otherwise. */
const DEFAULT_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;
const LAYOUT_ENUMS: Record<string, readonly string[]> = { width: ['default', 'wide'], coverSize: ['hero', 'full'], coverMask: ['none', 'radial'] };

/** A page's complete `layout`: its own valid options over the defaults. */
export function layoutOf(node: Pick<PageNode, 'layout'>): Record<string, unknown> {
  const layout: Record<string, unknown> = { ...DEFAULT_LAYOUT };
  for (const [key, fallback] of Object.entries(DEFAULT_LAYOUT)) {
    const value = node.layout?.[key];
    if (typeof fallback === 'boolean' && typeof value === 'boolean') layout[key] = value;
    if (typeof fallback === 'string' && typeof value === 'string' && LAYOUT_ENUMS[key].includes(value)) layout[key] = value;
  }
  return layout;
}
