import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '@app/common';
import { GuardedFetcher } from '../outbound/guarded-fetcher';
import { AiProvider, AiProviderError } from './ai-provider';
import { AiUsage } from './ai-usage';

describe('AiProvider errors', () => {
  const provider = (url: string, allowPrivate: boolean) => {
    const config = loadConfig({ AI_API_URL: url, AI_MODEL: 'm', AI_API_KEY: 'sk-canary', AI_MAX_RETRIES: '0', OUTBOUND_ALLOW_PRIVATE: String(allowPrivate) });
    // Calls without an owner never touch the usage ledger.
    return new AiProvider(new GuardedFetcher(config), config, {} as AiUsage);
  };
  const failure = (p: AiProvider) => p.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(
    () => {
      throw new Error('answered');
    },
    (error: Error) => error,
  );

  it('never name the model host, whether refused by the address policy or unreachable', async () => {
    for (const url of ['http://127.0.0.1:9/v1', 'http://10.20.30.40/v1', 'http://[::1]:9/v1']) {
      const error = await failure(provider(url, false));
      expect(error).toBeInstanceOf(AiProviderError);
      expect(error.message).toMatch(/AI_API_URL/);
      expect(error.message).not.toMatch(/127\.0\.0\.1|10\.20|::1|sk-canary/);
    }
  });

  it('say an answer was too large without the address', async () => {
    const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"x":"${'a'.repeat(9 * 1024 * 1024)}"}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const error = await failure(provider(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, true));
      expect(error.message).toBe('the model answered more than this server reads');
    } finally {
      server.close();
    }
  });
});
