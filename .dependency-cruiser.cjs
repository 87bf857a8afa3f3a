/**
 * The boundaries between our bounded contexts (src/modules/<module>), checked in CI by
 * `npm run check:boundaries` (dependency-cruiser). docs/architecture-boundaries.md explains them.
 */

/**
 * The dependency direction, lowest first: a module imports only modules before it in this list,
 * so no two modules depend on each other. Content and search each hold a core other modules build
 * on (revisions and documents; the search index) and an HTTP face built on those modules: the
 * faces are entries of their own, higher up.
 */
const CONTENT_HTTP = '^src/modules/content/(?:content\\.module\\.ts|application/content-reads\\.service\\.ts|api/[a-z-]+-content\\.controller\\.ts|api/space-documents\\.controller\\.ts)';
const SEARCH_HTTP =
  '^src/modules/search/(?:search\\.module\\.ts|api/|application/(?:search|links)\\.service\\.ts|infrastructure/(?:search-queries\\.repository|change-request-heads\\.reader)\\.ts)';
/** Webhooks and the audit log over HTTP: the face of the events module, built on the spaces its webhooks may name. */
const EVENTS_HTTP = '^src/modules/events/(?:events\\.module\\.ts|events\\.worker\\.module\\.ts|api/|application/(?:webhooks|audit-log)\\.service\\.ts)';
/** SAML single sign-on: a part of organizations that builds on teams (it maps a provider's groups to teams). */
const SSO = '^src/modules/organizations/sso/';
const LAYERS = [
  ['access'],
  ['identity'],
  ['content', '^src/modules/content/', CONTENT_HTTP],
  ['events', '^src/modules/events/', EVENTS_HTTP],
  ['organizations', '^src/modules/organizations/', SSO],
  ['teams'],
  ['sso', SSO],
  ['search-index', '^src/modules/search/', SEARCH_HTTP],
  ['spaces'],
  ['collections'],
  ['sharing'],
  ['openapi'],
  ['sites'],
  ['change-requests'],
  ['events-http', EVENTS_HTTP],
  ['content-http', CONTENT_HTTP],
  ['search', SEARCH_HTTP],
  ['insights'],
  ['agents'],
  ['git-sync'],
  ['ask'],
  ['conversations'],
  ['computed-content'],
  ['site-redirects'],
  ['docs-publish'],
  ['integrations'],
  ['pdf'],
  ['urls'],
  ['agent-conversations'],
  ['imports'],
  ['translations'],
  ['published'],
  ['comments'],
  ['site-context'],
  ['styleguides'],
].map(([name, path = `^src/modules/${name}/`, pathNot]) => ({ name, path, pathNot }));

const layerRules = LAYERS.slice(0, -1).map((layer, i) => {
  const higher = LAYERS.slice(i + 1).filter((other) => other.path !== layer.path);
  return {
    name: `layer-${layer.name}`,
    comment: `${layer.name} sits below ${higher.map((h) => h.name).join(', ')}: it imports none of them.`,
    severity: 'error',
    from: { path: layer.path, ...(layer.pathNot ? { pathNot: layer.pathNot } : {}) },
    to: { path: higher.filter((h) => !h.path.startsWith(layer.path) || h.pathNot === undefined).map((h) => h.path).join('|') },
  };
});

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
