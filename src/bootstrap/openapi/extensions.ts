import type { Schema } from './validation-schema';

/**
 * Fields this server adds to GitBook's objects, declared on the imported schemas so generated
 * clients see them. Keyed by GitBook's schema name; a name imported twice (`X_2`) gets them too.
 */
const EXTENSIONS: Record<string, Record<string, Schema>> = {
  ChangeRequest: {
    conflicts: {
      type: 'array',
      description:
        'Pages an update from the space could not merge (not in GitBook\'s contract). Each conflicting page holds a warning ' +
        'and both versions; it leaves this list once it is edited. While the list is not empty, a merge answers ' +
        '`result: "conflicts"`.',
      items: {
        type: 'object',
        required: ['page', 'reasons'],
        properties: {
          page: { type: 'string', description: 'Page id' },
          reasons: { type: 'array', items: { type: 'string' }, description: 'e.g. `content`, `title`, `deleted-and-modified`' },
        },
      },
    },
    // Added to GitBook's `styleguide` marker (its own fields stay as GitBook describes them).
    styleguide: {
      type: 'object',
      properties: {
        unrevisedPages: {
          type: 'number',
          description:
            'Pages the latest check left as they were because the model\'s answers lost protected code, links or tags (not in GitBook\'s ' +
            'contract). Recorded when the check finished.',
        },
        uncheckedPages: {
          type: 'number',
          description: 'Pages past the check\'s page limit (`STYLEGUIDE_MAX_PAGES`, in tree order), not sent to the model (not in GitBook\'s contract).',
        },
      },
    },
  },
  ContentImportRun: {
    skippedPages: {
      type: 'array',
      description:
        'Pages the import read but did not write because they are too complex to parse (over the markdown bounds), with the ' +
        'reason (not in GitBook\'s contract). The other pages are written; links through a skipped page are still followed.',
      items: {
        type: 'object',
        required: ['sourceURL', 'reason'],
        properties: { sourceURL: { type: 'string' }, reason: { type: 'string' } },
      },
    },
  },
};

export function declareExtensions(schemas: Record<string, Schema>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const base = name.replace(/_\d+$/, '');
    const fields = EXTENSIONS[base];
    if (!fields || !schema['x-gitbook-source']) continue;
    const properties = { ...schema.properties };
    for (const [field, extension] of Object.entries(fields)) {
      const existing = properties[field];
      // A field GitBook already has gains our properties beside its own.
      properties[field] = existing?.properties && extension.properties ? { ...existing, properties: { ...existing.properties, ...extension.properties } } : extension;
    }
    schema.properties = properties;
  }
}
