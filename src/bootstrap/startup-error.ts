/** A process cannot start because of its environment: names the variable to fix and the cause. */
export class StartupError extends Error {
  constructor(
    readonly variable: string,
    message: string,
    readonly causeText: string,
  ) {
    super(message);
  }
}

/** A connection URL fit for a log line: scheme, user, host, port and path; never the password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The cause of a failed connection in words. Node's happy-eyeballs AggregateError has an empty message. */
export function describeCause(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: { message?: string }[] };
  if (e?.message) return e.message;
  if (Array.isArray(e?.errors) && e.errors.length) return e.errors.map((inner) => inner.message ?? String(inner)).join('; ');
  return e?.code ?? String(error);
}
