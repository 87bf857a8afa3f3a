import { IncomingHttpHeaders, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as the signature covers it. */
  raw: string;
  body: any;
}

/**
 * A loopback HTTP server standing in for an integrator's endpoint: it records every request and
 * answers with the statuses the test queued for the path (200 once none is left).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, number[]>();
  private readonly always = new Map<string, number>();
  private server!: Server;
  url = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          body = null;
        }
        receiver.received.push({ path: req.url ?? '/', headers: req.headers, raw, body });
        const path = req.url ?? '/';
        const status = receiver.always.get(path) ?? receiver.answers.get(path)?.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain', 'x-receiver': 'test' });
        res.end(status >= 300 ? `failure ${status} ${'x'.repeat(2000)}` : 'ok');
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  /** The next answers to requests for `path`, in order. */
  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, [...(this.answers.get(path) ?? []), ...statuses]);
  }

  /** Every answer to `path` from now on (null: back to the queue, then 200). */
  answerAlways(path: string, status: number | null): void {
    if (status === null) this.always.delete(path);
    else this.always.set(path, status);
  }

  of(type: string): Received[] {
    return this.received.filter((r) => r.body?.type === type);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
