import { AddressInfo, Server, Socket, createServer, connect } from 'node:net';

/**
 * A TCP proxy in front of a dependency (PostgreSQL, Redis) on a port from the OS, which a test can
 * cut (every connection dropped, new ones refused: the dependency is "down") and restore on the
 * same port, without touching the real server other tests use.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target);
    await proxy.listen(0);
    return proxy;
  }

  /** `url` (postgres://, redis://) with its host and port replaced by the proxy's. */
  via(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Listens again on the same port (nothing to do while it listens). */
  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  stop(): Promise<void> {
    return this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  }
}
