import { Injectable } from '@nestjs/common';
import { ForbiddenError, NotFoundError } from '@app/common';
import type { User } from '../../identity/domain/user';
import { ResourceKind } from '../domain/event-types';

/** What a renderer is told about the resource: the event's references. */
export interface ResourceRef {
  kind: ResourceKind;
  id: string;
  organizationId: string;
  spaceId: string | null;
  data: Record<string, unknown>;
}

/** Presents a resource as the API would to `viewer`; null when they cannot see it (or it is gone). */
export type ResourceRenderer = (ref: ResourceRef, viewer: User) => Promise<object | null>;

/**
 * Each module that owns a kind of resource registers how to present it (with its own service and
 * presenter), so a webhook payload carries the resource exactly as the API shows it, and the
 * events module knows nothing of spaces or sites.
 */
@Injectable()
export class EventResources {
  private readonly renderers = new Map<ResourceKind, ResourceRenderer>();

  register(kind: ResourceKind, renderer: ResourceRenderer): void {
    this.renderers.set(kind, renderer);
  }

  /** The presented resource, or its bare reference when it cannot be shown (deleted, hidden, no renderer). */
  async render(ref: ResourceRef, viewer: User | null): Promise<object> {
    const renderer = this.renderers.get(ref.kind);
    const bare = { object: ref.kind, id: ref.id };
    if (!renderer || !viewer) return bare;
    try {
      return (await renderer(ref, viewer)) ?? bare;
    } catch (error) {
      // Not found or forbidden for the webhook's owner: the receiver learns only what changed, not its content.
      if (error instanceof NotFoundError || error instanceof ForbiddenError) return bare;
      throw error;
    }
  }
}
