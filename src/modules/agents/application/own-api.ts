/** An answer of our own REST API: its status and body (JSON when it has one). */
export interface ApiAnswer {
  status: number;
  body: any;
}

/**
 * Our own REST API called as the agent's caller: the same bearer token, through every guard,
 * validation, rate limit, audit entry and event a client's request meets, on the loopback
 * address of the server that took the agent's request. Not an outbound call: the address is this
 * process's own socket, never one a caller chose.
 */
export class OwnApi {
  /**
   * `userAgent` names the agent's client (with "via MCP") in the access log and the audit entries of
   * the calls, which would otherwise show only this process's own fetch.
   */
  constructor(
    private readonly base: string,
    private readonly authorization: string,
    private readonly userAgent: string,
  ) {}

  async call(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer> {
    const res = await fetch(`${this.base}/v1${path}`, {
      method,
      headers: { authorization: this.authorization, accept: 'application/json', 'user-agent': this.userAgent, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed };
  }
}
