/**
 * Nest closes the app on SIGTERM/SIGINT (enableShutdownHooks): the HTTP server stops accepting
 * and waits for in-flight requests, the workers finish their active jobs. This bounds that wait.
 */
export function exitIfShutdownHangs(timeoutMs: number): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        console.error(`Shutdown took longer than ${timeoutMs} ms; exiting`);
        process.exit(1);
      }, timeoutMs).unref();
    });
  }
}
