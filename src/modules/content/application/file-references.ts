import { Injectable } from '@nestjs/common';

/** Which of these storage keys a module's records name. */
export type ReferenceSource = (keys: string[]) => Promise<Set<string>>;

/**
 * Stored files named by something other than a revision (a custom font's faces): modules that
 * keep storage keys register here, so the file sweep leaves their files alone.
 */
@Injectable()
export class FileReferences {
  private readonly sources: ReferenceSource[] = [];

  register(source: ReferenceSource): void {
    this.sources.push(source);
  }

  async referenced(keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const source of this.sources) for (const key of await source(keys)) found.add(key);
    return found;
  }
}
