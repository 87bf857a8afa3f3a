/**
 * The boundaries between our bounded contexts (src/modules/<module>), checked in CI by
 * `npm run check:boundaries` (dependency-cruiser). docs/architecture-boundaries.md explains them.
 */

/**
 * The dependency direction, lowest first: a module imports only modules before it in this list,
 * so no two modules depend on each other (docs/architecture-boundaries.md).
 */
const LAYERS = [
  'access',
  'identity',
  'content',
  'events',
  'organizations',
  'teams',
  'sso',
  'search-index',
  'spaces',
  'collections',
  'sharing',
  'openapi',
  'sites',
  'change-requests',
  'content-api',
  'search',
  'insights',
  'agents',
  'git-sync',
  'ask',
  'conversations',
  'computed-content',
  'site-redirects',
  'docs-publish',
  'integrations',
  'pdf',
  'urls',
  'agent-conversations',
  'imports',
  'translations',
  'published',
  'comments',
  'site-context',
  'styleguides',
];

// A new module takes its place in the list before the check will run.
const unplaced = require('node:fs')
  .readdirSync(`${__dirname}/src/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.includes(entry.name))
  .map((entry) => entry.name);
if (unplaced.length) throw new Error(`Modules missing from the dependency direction in .dependency-cruiser.cjs: ${unplaced.join(', ')}`);

const layerRules = LAYERS.slice(0, -1).map((name, i) => ({
  name: `layer-${name}`,
  comment: `${name} sits below ${LAYERS.slice(i + 1).join(', ')}: it imports none of them.`,
  severity: 'error',
  from: { path: `^src/modules/${name}/` },
  to: { path: `^src/modules/(?:${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-other-module-infrastructure',
      comment:
        "A module's tables, entities, repositories, subscribers and SQL are its own: another module reaches its data through the " +
        'services and types it exports. (A foreign key names the other table, it does not import its entity.)',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/infrastructure/|^src/modules/[^/]+/[^/]+/infrastructure/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'domain-without-framework',
      comment: 'Domain code holds the rules and imports neither Nest nor TypeORM.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/domain/|^src/modules/[^/]+/[^/]+/domain/' },
      to: { path: '^node_modules/(?:@nestjs|typeorm)/' },
    },
    {
      name: 'domain-without-outer-layers',
      comment: "Domain code does not reach its own module's application, api or infrastructure code.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/domain/|^src/modules/([^/]+)/[^/]+/domain/' },
      to: { path: '^src/modules/$1/(?:application|api|infrastructure)/|^src/modules/$1/[^/]+/(?:application|api|infrastructure)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
