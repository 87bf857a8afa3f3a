import { defineJob } from './job-definition';
import { JOB_REGISTRY } from './job-registry';
import { registryProblems } from './registry-check';

const job = (name: string, queue = 'q', concurrency = 1) =>
  defineJob({ name, queue, attempts: 1, backoff: { type: 'fixed', delayMs: 1 }, timeoutMs: 1000, concurrency });

describe('registryProblems', () => {
  it('accepts one handler per registered job', () => {
    expect(registryProblems([job('a'), job('b')], ['b', 'a'])).toEqual([]);
  });

  it('names a registered job without handler and a handler without registration', () => {
    expect(registryProblems([job('a'), job('b')], ['a', 'c'])).toEqual([
      'job "b" is registered but has no handler',
      'a handler for "c" exists but the job is not registered',
    ]);
  });

  it('refuses duplicates and jobs of one queue disagreeing on concurrency', () => {
    expect(registryProblems([job('a', 'q', 1), job('a', 'q', 1), job('b', 'q', 2)], ['a', 'a', 'b'])).toEqual([
      'job "a" is registered twice',
      'job "a" has 2 handlers',
      'queue "q": jobs disagree on concurrency (1 and 2)',
    ]);
  });

  it('holds for the platform registry and its declared names', () => {
    expect(registryProblems(JOB_REGISTRY, JOB_REGISTRY.map((d) => d.name))).toEqual([]);
    expect(() => job('Bad Name')).toThrow(/lower-case/);
  });
});
