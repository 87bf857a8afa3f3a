import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { Writable } from 'node:stream';
import { accessLog } from './access-log';

/** An app behind the access log whose lines are collected, parsed. */
function appLogging(level: string) {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = express();
  app.use(accessLog(pino({ level }, sink)));
  app.get('/v1/files/:key', (_req, res) => res.json({ ok: true }));
  app.get('/boom', (_req, res) => res.status(500).json({ error: { code: 500, message: 'boom' } }));
  return { app, lines };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('accessLog', () => {
  it('gives every request an id, echoing a sane one, and logs one line with the path redacted and no query', async () => {
    const { app, lines } = appLogging('info');
    const echoed = await request(app).get('/v1/files/secret-key?token=abc').set('X-Request-Id', 'req-42');
    expect(echoed.headers['x-request-id']).toBe('req-42');
    const made = await request(app).get('/v1/files/other').set('X-Request-Id', 'not sane!');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await settle();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', service: 'api', req: { id: 'req-42', method: 'GET', path: '/v1/files/[redacted]' }, res: { statusCode: 200 } });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-key');
    expect(JSON.stringify(lines)).not.toContain('token=abc');
    expect(lines[1].req.id).toBe(made.headers['x-request-id']);
  });

  it('logs a 5xx as an error, and only what the level lets through', async () => {
    const { app, lines } = appLogging('error');
    await request(app).get('/v1/files/k');
    await request(app).get('/boom');
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'request errored', req: { path: '/boom' }, res: { statusCode: 500 } });
  });
});
