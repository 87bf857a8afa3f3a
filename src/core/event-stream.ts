import type { Response } from 'express';

/** Starts an answer of server-sent events: not cached, not buffered by a proxy, its head sent at once. */
export function openEventStream(res: Response): void {
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
}
