import { JobDefinition } from './job-definition';

/**
 * The worker's start-up check: every registered job has exactly one handler, every handler has a
 * registration, and jobs sharing a queue agree on its concurrency. Returns the problems found.
 */
export function registryProblems(definitions: readonly JobDefinition[], handledJobNames: readonly string[]): string[] {
  const problems: string[] = [];
  const registered = new Map<string, JobDefinition>();
  for (const definition of definitions) {
    if (registered.has(definition.name)) problems.push(`job "${definition.name}" is registered twice`);
    registered.set(definition.name, definition);
  }
  const handled = new Map<string, number>();
  for (const name of handledJobNames) handled.set(name, (handled.get(name) ?? 0) + 1);
  for (const name of registered.keys()) {
    if (!handled.has(name)) problems.push(`job "${name}" is registered but has no handler`);
  }
  for (const [name, count] of handled) {
    if (!registered.has(name)) problems.push(`a handler for "${name}" exists but the job is not registered`);
    if (count > 1) problems.push(`job "${name}" has ${count} handlers`);
  }
  const concurrency = new Map<string, number>();
  for (const definition of definitions) {
    const seen = concurrency.get(definition.queue);
    if (seen !== undefined && seen !== definition.concurrency) {
      problems.push(`queue "${definition.queue}": jobs disagree on concurrency (${seen} and ${definition.concurrency})`);
    }
    concurrency.set(definition.queue, definition.concurrency);
  }
  return problems;
}

export class JobRegistryMismatchError extends Error {
  constructor(problems: string[]) {
    super(`The worker refuses to start: ${problems.join('; ')}`);
  }
}

export function assertRegistryMatches(definitions: readonly JobDefinition[], handledJobNames: readonly string[]): void {
  const problems = registryProblems(definitions, handledJobNames);
  if (problems.length) throw new JobRegistryMismatchError(problems);
}
