const SECRET_KEY = /(secret|password|passwd|token|credential|api[-_]?key|private[-_]?key)/i;

/**
 * Refuses a payload with a field named like a secret. Payloads are stored in the queue, shown on
 * the dashboard and logged on failure, so secrets must be passed by reference (an id the handler
 * resolves), never by value.
 */
export function assertNoSecrets(jobName: string, payload: unknown, path = ''): void {
  if (!payload || typeof payload !== 'object') return;
  for (const [key, value] of Object.entries(payload)) {
    const at = path ? `${path}.${key}` : key;
    if (SECRET_KEY.test(key) && !/(id|ref|reference)$/i.test(key)) {
      throw new Error(`Job ${jobName}: payload field "${at}" looks like a secret; pass a reference instead`);
    }
    assertNoSecrets(jobName, value, at);
  }
}
