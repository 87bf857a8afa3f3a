import type { Type } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';

/**
 * A provider another module may or may not supply (a port whose implementation lives in a module
 * that depends on ours), looked up anywhere in the application on first use; null when none is.
 */
export function optionalProvider<T>(modules: ModuleRef, token: abstract new (...args: never[]) => T): () => T | null {
  let found: T | null | undefined;
  return () => {
    if (found === undefined) {
      try {
        found = modules.get(token as unknown as Type<T>, { strict: false });
      } catch {
        found = null;
      }
    }
    return found ?? null;
  };
}
