import { InvalidError } from '@app/common';
import { EVENT_TYPES, EventType, isEventType } from './event-types';

export interface WebhookState {
  id: string;
  organizationId: string;
  url: string;
  events: EventType[];
  /** Only events about these spaces; null for every event of the organization. */
  spaceIds: string[] | null;
  active: boolean;
  /** Why the webhook was turned off by the server, and when. */
  disabledReason: string | null;
  disabledAt: Date | null;
  /** When the current run of failed deliveries began; null while deliveries succeed. */
  failingSince: Date | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

export interface WebhookPatch {
  url?: string;
  events?: string[];
  spaceIds?: string[] | null;
  active?: boolean;
}

const MAX_URL = 2048;

/**
 * A subscription of an organization to domain events. Rules: an http(s) URL without credentials,
 * at least one known event, and the failure policy: a webhook whose deliveries have failed for
 * the whole retry window is disabled (and says why) until an admin turns it on again.
 */
export class Webhook {
  private constructor(private state: WebhookState) {}

  static create(input: { id: string; organizationId: string; url: string; events: string[]; spaceIds?: string[] | null; active?: boolean; createdBy: string; now: Date }): Webhook {
    return new Webhook({
      id: input.id,
      organizationId: input.organizationId,
      url: Webhook.checkUrl(input.url),
      events: Webhook.checkEvents(input.events),
      spaceIds: Webhook.checkSpaces(input.spaceIds ?? null),
      active: input.active ?? true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      createdBy: input.createdBy,
      createdAt: input.now,
      updatedAt: input.now,
      version: 1,
    });
  }

  static restore(state: WebhookState): Webhook {
    return new Webhook({ ...state });
  }

  get id(): string {
    return this.state.id;
  }
  get organizationId(): string {
    return this.state.organizationId;
  }

  toState(): WebhookState {
    return { ...this.state };
  }

  /** `by`: the admin making the change; turning a webhook on makes them its owner (deliveries render with their access). */
  update(patch: WebhookPatch, now: Date, by?: string): void {
    if (patch.url !== undefined) this.state.url = Webhook.checkUrl(patch.url);
    if (patch.events !== undefined) this.state.events = Webhook.checkEvents(patch.events);
    if (patch.spaceIds !== undefined) this.state.spaceIds = Webhook.checkSpaces(patch.spaceIds);
    if (patch.active !== undefined) {
      this.state.active = patch.active;
      // Turning it on again is how an admin says the receiver is fixed: the failure record starts over.
      if (patch.active) Object.assign(this.state, { disabledReason: null, disabledAt: null, failingSince: null }, by ? { createdBy: by } : {});
    }
    this.state.updatedAt = now;
  }

  /** Whether an event of this type about this space goes to this webhook. */
  wants(type: EventType, spaceId: string | null): boolean {
    if (!this.state.active || !this.state.events.includes(type)) return false;
    return this.state.spaceIds === null || (spaceId !== null && this.state.spaceIds.includes(spaceId));
  }

  private static checkUrl(url: string): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidError('url: not a valid URL');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InvalidError('url: must be http or https');
    if (parsed.username || parsed.password) throw new InvalidError('url: must not carry credentials; verify deliveries with the signature instead');
    if (url.length > MAX_URL) throw new InvalidError(`url: at most ${MAX_URL} characters`);
    return parsed.toString();
  }

  private static checkEvents(events: string[]): EventType[] {
    if (events.length === 0) throw new InvalidError('events: name at least one event');
    const unknown = events.find((e) => !isEventType(e));
    if (unknown !== undefined) throw new InvalidError(`events: "${unknown}" is not one of ${EVENT_TYPES.join(', ')}`);
    return [...new Set(events as EventType[])];
  }

  private static checkSpaces(spaceIds: string[] | null): string[] | null {
    if (spaceIds === null) return null;
    if (spaceIds.length === 0) throw new InvalidError('spaces: omit it (or send null) for every space; an empty list matches nothing');
    return [...new Set(spaceIds)];
  }
}

/**
 * When the next attempt of a failed delivery goes: exponential from `baseMs`, capped at `maxMs`
 * (attempt 1 failed → base, 2 → 2×base, ...). With the defaults (30 s, 1 h) a delivery is tried
 * about 30 times over 24 hours.
 */
export function retryDelayMs(failedAttempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(failedAttempt - 1, 30));
}
