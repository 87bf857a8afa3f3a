import express from 'express';
import request from 'supertest';
import { indexRoutes, routeLayers } from './route-index';

/** An app whose routes overlap the way Nest's do: literal prefixes, parameters, wildcards, one-segment paths. */
function app(indexed: boolean) {
  const a = express();
  const answer = (name: string) => (req: express.Request, res: express.Response) => res.json({ name, params: req.params });
  // A first run of routes, as Swagger UI registers before Nest's, then a mounted middleware.
  a.get('/docs', answer('docs'));
  a.get('/docs/init.js', answer('docs-init'));
  a.use('/docs', (req, res, next) => (req.path === '/asset.css' ? res.json({ name: 'asset' }) : next()));
  a.use((req, res, next) => {
    res.setHeader('x-before', '1');
    next();
  });
  a.get('/health', answer('health'));
  a.get('/v1', answer('api-info'));
  a.get('/v1/user', answer('user'));
  a.get('/v1/spaces/:spaceId', answer('space'));
  a.patch('/v1/spaces/:spaceId', answer('space-patch'));
  a.get('/v1/spaces/:spaceId/content', answer('content'));
  a.get('/v1/:anything/special', answer('param-second'));
  a.get('/v1/orgs/:organizationId', answer('org'));
  a.get('/v1/spaces/:spaceId/{*rest}', answer('space-wildcard'));
  a.get('/openapi/{*path}', answer('openapi'));
  a.get('/v1/orgs/:organizationId/spaces', (req, res, next) => (req.query.skip ? next() : res.json({ name: 'org-spaces' })));
  a.get('/v1/orgs/:organizationId/spaces', answer('org-spaces-second'));
  a.get('/v1/fail', () => {
    throw new Error('boom');
  });
  a.use((req, res) => res.status(404).json({ name: 'not-found', path: req.path }));
  a.use((error: Error, req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ name: 'error', message: error.message }));
  if (indexed) indexRoutes((a as unknown as { router: Parameters<typeof indexRoutes>[0] }).router);
  return a;
}

const CASES: Array<[string, string]> = [
  ['get', '/docs'],
  ['get', '/DOCS/'],
  ['get', '/docs/init.js'],
  ['get', '/docs/asset.css'],
  ['head', '/docs'],
  ['get', '/health'],
  ['get', '/health/'],
  ['get', '/HEALTH'],
  ['get', '/health/more'],
  ['get', '/v1'],
  ['get', '/v1/'],
  ['get', '/v1/user'],
  ['get', '/V1/User'],
  ['get', '/v1/spaces/s1'],
  ['get', '/v1/spaces/s1/'],
  ['patch', '/v1/spaces/s1'],
  ['delete', '/v1/spaces/s1'],
  ['head', '/v1/spaces/s1'],
  ['options', '/v1/spaces/s1'],
  ['get', '/v1/spaces/s1/content'],
  ['get', '/v1/spaces/s1/deep/er'],
  ['get', '/v1/spaces/special'],
  ['get', '/v1/orgs/special'],
  ['get', '/v1/other/special'],
  ['get', '/v1/%73paces/s1'],
  ['get', '/v1/spaces/%E0%A4%A'],
  ['get', '/v1/spaces/a%2Fb'],
  ['get', '/v1//spaces/s1'],
  ['get', '/v1/orgs/o1'],
  ['get', '/v1/orgs/o1/spaces'],
  ['get', '/v1/orgs/o1/spaces?skip=1'],
  ['get', '/openapi/a/b'],
  ['get', '/v1/fail'],
  ['get', '/nowhere'],
  ['get', '/'],
];

describe('route index', () => {
  const plain = app(false);
  const indexed = app(true);

  it.each(CASES)('%s %s answers as without the index', async (method, path) => {
    const send = (target: express.Express) => (request(target) as unknown as Record<string, (p: string) => request.Test>)[method](path);
    const [before, after] = await Promise.all([send(plain), send(indexed)]);
    expect({ status: after.status, body: after.body, allow: after.headers.allow, before: after.headers['x-before'] }).toEqual({
      status: before.status,
      body: before.body,
      allow: before.headers.allow,
      before: before.headers['x-before'],
    });
  });

  it('keeps the stack as it was: every layer and route is still listed, in its order', () => {
    const plainRouter = (plain as unknown as { router: { stack: unknown[] } }).router;
    const indexedRouter = (indexed as unknown as { router: { stack: unknown[] } }).router;
    expect(indexedRouter.stack.length).toBe(plainRouter.stack.length);
    expect(routeLayers(indexedRouter as never).map((l) => (l.route as { path: string }).path)).toEqual(routeLayers(plainRouter as never).map((l) => (l.route as { path: string }).path));
  });

  it('walks only the layers that can match: a route of another prefix is never tested', async () => {
    const a = express();
    const tested: string[] = [];
    a.get('/v1/orgs/:id', (req, res) => res.json({ name: 'org' }));
    a.get('/v1/spaces/:id', (req, res) => res.json({ name: 'space' }));
    const router = (a as unknown as { router: { stack: Array<{ match(path: string): unknown; route?: { path: string } }> } }).router;
    for (const layer of router.stack) {
      const match = layer.match.bind(layer);
      layer.match = (path: string) => {
        if (layer.route) tested.push(layer.route.path);
        return match(path);
      };
    }
    indexRoutes(router as never);
    expect((await request(a).get('/v1/spaces/s1')).body).toEqual({ name: 'space' });
    expect(tested).toEqual(['/v1/spaces/:id']);
  });

  it('still answers with the whole stack once a layer is added after indexing', async () => {
    const a = express();
    a.get('/v1/a', (req, res) => res.json({ name: 'a' }));
    a.get('/v1/b', (req, res) => res.json({ name: 'b' }));
    indexRoutes((a as unknown as { router: Parameters<typeof indexRoutes>[0] }).router);
    a.get('/v1/c', (req, res) => res.json({ name: 'c' }));
    expect((await request(a).get('/v1/c')).body).toEqual({ name: 'c' });
    expect((await request(a).get('/v1/a')).body).toEqual({ name: 'a' });
  });

  it('leaves an app alone when a route takes OPTIONS itself (the groups would answer unmatched OPTIONS with Allow)', () => {
    const a = express();
    a.get('/v1/a', (req, res) => res.end());
    a.options('/v1/b', (req, res) => res.end());
    const router = (a as unknown as { router: { handle: unknown } }).router;
    const handle = router.handle;
    indexRoutes(router as never);
    expect(router.handle).toBe(handle);
  });
});
