import { Injectable } from '@nestjs/common';
import type { Tx } from '../../../database/transactions';

export type OpenAPIChangeListener = (organizationId: string, tx?: Tx) => Promise<void>;

/**
 * Tells modules that show specs elsewhere (published sites embed operations) that a spec of an
 * organization changed what it shows: a new current version, or its deletion. Called inside the
 * transaction that makes the change.
 */
@Injectable()
export class OpenAPIChanges {
  private readonly listeners: OpenAPIChangeListener[] = [];

  onChange(listener: OpenAPIChangeListener): void {
    this.listeners.push(listener);
  }

  async changed(organizationId: string, tx?: Tx): Promise<void> {
    for (const listener of this.listeners) await listener(organizationId, tx);
  }
}
