import express from 'express';
import request from 'supertest';
import { Middleware, MiddlewareChain } from './middleware-chain';

/** Steps that record themselves in `x-steps` and, by query flag, fail, throw, reject, answer or skip. */
function steps(): Array<[string | null, Middleware]> {
  const mark = (name: string): Middleware => (req, res, next) => {
    res.setHeader('x-steps', `${res.getHeader('x-steps') ?? ''}${name},`);
    if (req.query.at !== name) return next();
    switch (req.query.do) {
      case 'fail':
        return next(new Error(`failed in ${name}`));
      case 'throw':
        throw new Error(`threw in ${name}`);
      case 'route':
        return next('route');
      case 'answer':
        return res.status(202).json({ answeredBy: name });
      default:
        return next();
    }
  };
  const rejecting: Middleware = async (req, _res, next) => {
    if (req.query.do === 'reject') throw new Error('rejected');
    next();
  };
  return [
    [null, mark('first')],
    ['/v1', mark('api')],
    ['/metrics', mark('metrics')],
    [null, rejecting],
    [null, mark('last')],
  ];
}

/** The same steps as Express layers, or as one chain, then a route, a 404 and an error handler. */
function app(chained: boolean) {
  const a = express();
  if (chained) {
    const chain = new MiddlewareChain();
    for (const [prefix, step] of steps()) (prefix ? chain.use(prefix, step) : chain.use(step));
    a.use(chain.handler());
  } else {
    for (const [prefix, step] of steps()) (prefix ? a.use(prefix, step) : a.use(step));
  }
  a.get('/v1/spaces/:id', (req, res) => res.json({ space: req.params.id }));
  a.use((req, res) => res.status(404).json({ notFound: req.path }));
  a.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => res.status(500).json({ error: error.message }));
  return a;
}

const PATHS = ['/v1/spaces/s1', '/V1/spaces/s1', '/v1', '/v1/', '/v1x/spaces', '/metrics', '/metrics/x', '/Metrics', '/other'];
const FLAGS = ['', '?at=first&do=fail', '?at=api&do=throw', '?at=api&do=answer', '?at=first&do=route', '?do=reject', '?at=metrics&do=answer', '?at=last&do=fail'];

describe('MiddlewareChain', () => {
  const plain = app(false);
  const chained = app(true);

  it.each(PATHS.flatMap((path) => FLAGS.map((flags) => [path + flags])))('answers %s as the same Express layers would', async (url) => {
    const [expected, actual] = await Promise.all([request(plain).get(url), request(chained).get(url)]);
    expect({ status: actual.status, body: actual.body, steps: actual.headers['x-steps'] }).toEqual({ status: expected.status, body: expected.body, steps: expected.headers['x-steps'] });
  });

  it('runs a prefixed step for its path and the paths below it only', async () => {
    expect((await request(chained).get('/v1/spaces/s1')).headers['x-steps']).toBe('first,api,last,');
    expect((await request(chained).get('/v1x/spaces')).headers['x-steps']).toBe('first,last,');
  });
});
