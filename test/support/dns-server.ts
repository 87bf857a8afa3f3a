import { createSocket, Socket } from 'node:dgram';
import { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

/**
 * A DNS server on 127.0.0.1 (a port from the OS) answering TXT questions from `records`; names it
 * does not hold answer NXDOMAIN, and names in `failing` answer SERVFAIL. Over UDP, as resolvers ask.
 */
export class TestDnsServer {
  readonly records = new Map<string, string[]>();
  readonly failing = new Set<string>();
  readonly questions: string[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('message', (message, remote) => {
      let query: packet.Packet;
      try {
        query = packet.decode(message);
      } catch {
        return;
      }
      const question = query.questions?.[0];
      if (!question) return;
      const name = question.name.toLowerCase();
      this.questions.push(`${question.type} ${name}`);
      const values = question.type === 'TXT' ? this.records.get(name) : undefined;
      const rcode = this.failing.has(name) ? 'SERVFAIL' : values ? 'NOERROR' : 'NXDOMAIN';
      const answer = packet.encode({
        type: 'response',
        id: query.id,
        flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (rcode === 'SERVFAIL' ? 2 : rcode === 'NXDOMAIN' ? 3 : 0),
        questions: [question],
        answers: rcode === 'NOERROR' ? values!.map((data) => ({ type: 'TXT' as const, name: question.name, ttl: 1, class: 'IN' as const, data })) : [],
      });
      socket.send(answer, remote.port, remote.address);
    });
  }

  static async start(): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new TestDnsServer(socket);
  }

  /** `ip:port`, as HOSTNAME_VERIFY_RESOLVER takes it. */
  get address(): string {
    const { address, port } = this.socket.address() as AddressInfo;
    return `${address}:${port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
