import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { verifySignature } from '../../src/modules/events';

export interface FakeCall {
  path: string;
  body: any;
  signed: boolean;
  token: string | undefined;
}

/**
 * An integration's service for tests: it records what it is sent (and whether the signature holds
 * with `secret`) and answers renders with `render` (a function of the request: an object, or
 * `{status, body, delayMs}` for failures and slowness).
 */
export async function startFakeIntegration(secret: string) {
  const calls: FakeCall[] = [];
  let render: (body: any) => any = (body) => ({ type: 'element', state: {}, props: body.props, element: { type: 'block', children: [{ type: 'text', children: `hello ${body.props?.name ?? ''}` }] } });
  let eventStatus = 200;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const signed = verifySignature(secret, String(req.headers['x-integration-signature'] ?? ''), raw, Math.floor(Date.now() / 1000));
    const body = raw ? JSON.parse(raw) : undefined;
    calls.push({ path: req.url ?? '', body, signed, token: req.headers['x-integration-installation-token'] as string | undefined });
    if (req.url === '/events') {
      res.writeHead(eventStatus, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const answer = render(body);
    // Unref: a test may end while a slow answer is still waiting.
    if (answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs).unref());
    res.writeHead(answer?.status ?? 200, { 'content-type': 'application/json' });
    res.end(typeof answer?.raw === 'string' ? answer.raw : JSON.stringify(answer?.status ? answer.body ?? {} : answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    setRender(next: (body: any) => any) {
      render = next;
    },
    setEventStatus(status: number) {
      eventStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
