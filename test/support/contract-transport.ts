import { checkContract } from '@app/testing';

/**
 * A `serviceBinding` for the official clients: every response is checked against GitBook's
 * contract on its way back, and each call is recorded (`METHOD /path`) in `calls`.
 */
export function contractTransport(calls: string[] = []) {
  return {
    calls,
    fetch: async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const response = await fetch(input, init);
      const text = await response.clone().text();
      const url = new URL(input);
      calls.push(`${method} ${url.pathname}`);
      checkContract(method.toLowerCase(), url.pathname + url.search, response.status, text ? JSON.parse(text) : undefined);
      return response;
    },
  };
}
