import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { until } from './worker-process';

/** A Redis of the test's own on a port the OS picks, which the test stops and starts again. */
export class OwnRedis {
  private child?: ChildProcess;
  constructor(readonly port: number) {}

  static async create(): Promise<OwnRedis> {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    return new OwnRedis(port);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return;
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until('redis-server to answer', () => this.answers(), 10000);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private answers(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => (socket.destroy(), resolve(false)));
      socket.connect(this.port, '127.0.0.1');
    });
  }
}
