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
  },
};

export function declareExtensions(schemas: Record<string, Schema>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    const base = name.replace(/_\d+$/, '');
    const fields = EXTENSIONS[base];
    if (!fields || !schema['x-gitbook-source']) continue;
    schema.properties = { ...schema.properties, ...fields };
  }
}
