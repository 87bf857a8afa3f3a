// Seeds a two-section, two-space site with OpenAPI blocks on a running server, for GitBook's renderer.
// Usage: API=http://127.0.0.1:4100 TOKEN=... HOST=docs.renderer.test node seed.mjs
// With STATUS_BLOCK=<address of the example integration's service> and SIGNING_SECRET (the one it runs with),
// it also publishes and installs examples/integrations/status-block and puts its block on a "Status" page
// (the server must run with OUTBOUND_ALLOW_PRIVATE=true for a local http service).
const API = process.env.API, TOKEN = process.env.TOKEN, HOST = process.env.HOST;
async function call(method, path, body) {
  const res = await fetch(`${API}/v1${path}`, { method, headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const org = (await call('POST', '/orgs', { title: 'Acme' })).id;
const HOSTNAME = HOST;
const space = async (title, pages) => {
  const id = (await call('POST', `/orgs/${org}/spaces`, { title })).id;
  const starter = (await call('GET', `/spaces/${id}/content`)).pages.map((page) => ({ operation: 'delete_page', page: page.id }));
  const cr = (await call('POST', `/spaces/${id}/change-requests`, { subject: 'Content' })).id;
  await call('POST', `/spaces/${id}/change-requests/${cr}/content`, { changes: [...starter, ...pages.map((markdown) => ({ operation: 'insert_page', document: { markdown } }))] });
  await call('POST', `/spaces/${id}/change-requests/${cr}/merge`);
  return id;
};
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0', description: 'The **Pets** API.' },
  servers: [{ url: 'https://api.acme.test/v1' }],
  tags: [{ name: 'Pets', description: 'Everything about pets.' }],
  paths: {
    '/pets': {
      get: { tags: ['Pets'], summary: 'List pets', operationId: 'listPets', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 }, description: 'How many to return' }], responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } },
      post: { tags: ['Pets'], summary: 'Create a pet', operationId: 'createPet', requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string', description: 'The pet\'s name' }, tag: { type: 'string' } } } } },
};
await call('PUT', `/orgs/${org}/openapi/pets`, { source: { text: JSON.stringify(SPEC) } });
const STATUS = process.env.STATUS_BLOCK
  ? ['# Status\n\nThe services, as the status-block integration reports them:\n\n{% integration integration="status-block" block="status" props="{\\"service\\":\\"Payments API\\"}" %}\n\nRendered by the integration\'s own service.\n']
  : [];
const guides = await space('Guides', [
  ...STATUS,
  '# Introduction\n\nWelcome to **Acme**. This site is served by docs-platform-server and rendered by GitBook\'s own renderer.\n\n{% hint style="info" %}\nEverything here comes from our API.\n{% endhint %}\n\n## Install\n\n```bash\nnpm install acme\n```\n',
  '# Quickstart\n\n1. Create a token.\n2. Call the API.\n\n{% tabs %}\n{% tab title="curl" %}\n```bash\ncurl https://api.acme.test/v1/pets\n```\n{% endtab %}\n{% tab title="Node" %}\n```js\nawait fetch("https://api.acme.test/v1/pets");\n```\n{% endtab %}\n{% endtabs %}\n',
]);
const reference = await space('API reference', [
  '# Pets\n\nList and create pets.\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n[OpenAPI pets](https://api.acme.test/openapi.json)\n{% endopenapi-operation %}\n\n{% openapi-operation spec="pets" path="/pets" method="post" %}\n[OpenAPI pets](https://api.acme.test/openapi.json)\n{% endopenapi-operation %}\n',
]);
if (process.env.STATUS_BLOCK) {
  const { readFileSync } = await import('node:fs');
  const manifest = JSON.parse(readFileSync(new URL('../../examples/integrations/status-block/manifest.json', import.meta.url), 'utf8'));
  await call('POST', '/integrations/status-block', { ...manifest, organization: org, endpoint: process.env.STATUS_BLOCK, secrets: { signingSecret: process.env.SIGNING_SECRET }, script: '' });
  const installation = (await call('POST', '/integrations/status-block/installations', { organization: org })).id;
  await call('POST', `/integrations/status-block/installations/${installation}/spaces`, { space: guides });
}
const site = (await call('POST', `/orgs/${org}/sites`, { title: 'Acme Docs' })).id;
await call('POST', `/orgs/${org}/sites/${site}/sections`, { spaceId: guides, title: 'Guides' });
await call('POST', `/orgs/${org}/sites/${site}/sections`, { spaceId: reference, title: 'API reference' });
await call('PATCH', `/orgs/${org}/sites/${site}`, { hostname: HOST });
await call('POST', `/orgs/${org}/sites/${site}/publish`);
console.log(JSON.stringify({ org, site, guides, reference, structure: (await call('GET', `/orgs/${org}/sites/${site}/structure`)).structure.map((s) => [s.title, s.path]) }));
