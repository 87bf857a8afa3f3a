import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeRequest {
  at: number;
  authorization?: string;
  body: { model: string; messages: Array<{ role: string; content: string; tool_call_id?: string }>; response_format?: unknown; tools?: Array<{ type: string; function: { name: string; description: string } }> };
}

/** What the fake answers next: a status (with headers) instead of a translation, `times` times. */
export interface FakeFailure {
  status: number;
  headers?: Record<string, string>;
  times: number;
  /** Requests answered normally before this failure starts. */
  after: number;
}

/**
 * A loopback OpenAI-compatible chat-completions server for tests: it "translates" the JSON page
 * the prompt carries by suffixing every word of two letters or more with the target language
 * (`Install` -> `Install-fr`), leaving placeholders, code and punctuation alone, as a model asked
 * to would. It records every request, can fail on demand (429 with Retry-After, 5xx), and can hold
 * answers until released.
 */
/** An answer that calls tools instead of (or besides) saying something. */
export interface FakeMessage {
  content?: string;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
}

export async function startFakeAiProvider() {
  const requests: FakeRequest[] = [];
  const failures: FakeFailure[] = [];
  let holdAfter = Infinity;
  let custom: ((body: FakeRequest['body']) => string | FakeMessage) | null = null;
  const held: Array<() => void> = [];

  const answer = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const body = JSON.parse(raw) as FakeRequest['body'];
    requests.push({ at: Date.now(), authorization: req.headers.authorization, body });
    const failure = failures[0];
    if (failure && failure.after > 0) failure.after--;
    else if (failure) {
      if (--failure.times <= 0) failures.shift();
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      return res.end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
    }
    const respond = () => {
      if (custom) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const reply = custom(body);
        const message = typeof reply === 'string' ? { role: 'assistant', content: reply } : { role: 'assistant', content: reply.content ?? null, ...(reply.toolCalls ? { tool_calls: reply.toolCalls.map((call, i) => ({ id: `call_${requests.length}_${i}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } })) } : {}) };
        const finish = typeof reply !== 'string' && reply.toolCalls ? 'tool_calls' : 'stop';
        return res.end(JSON.stringify({ id: 'c', object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message, finish_reason: finish }] }));
      }
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const language = /into "([^"]+)"/.exec(system)?.[1] ?? 'xx';
      const page = JSON.parse(body.messages.find((m) => m.role === 'user')!.content) as Record<string, string>;
      const translate = (text: string) => text.replace(/(?<![⟦\w])[A-Za-z]{2,}(?![\w⟧])/g, (word) => `${word}-${language}`);
      const content = JSON.stringify({ title: translate(page.title), description: translate(page.description ?? ''), body: translate(page.body) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    };
    if (requests.length > holdAfter) held.push(respond);
    else respond();
  };

  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404);
      return res.end();
    }
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => answer(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    requests,
    /** After `after` good answers, the next `times` requests answer `status` (with `headers`, e.g. Retry-After). */
    fail(status: number, times = 1, options: { headers?: Record<string, string>; after?: number } = {}) {
      failures.push({ status, times, headers: options.headers, after: options.after ?? 0 });
    },
    /** Answers every later request with this content (or these tool calls) instead of a translation. */
    answerWith(answer: (body: FakeRequest['body']) => string | FakeMessage) {
      custom = answer;
    },
    /** Requests after the first `count` get no answer until release(). */
    holdAfter(count: number) {
      holdAfter = count;
    },
    release() {
      holdAfter = Infinity;
      for (const respond of held.splice(0)) respond();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
