import { QueryFailedError } from 'typeorm';
import { isDependencyOutage } from './outages';

describe('isDependencyOutage', () => {
  it('recognises a database or Redis that is away, however the driver wraps it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isDependencyOutage(refused)).toBe(true);
    expect(isDependencyOutage(new QueryFailedError('SELECT 1', [], shutdown))).toBe(true);
    expect(isDependencyOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDependencyOutage(Object.assign(new AggregateError([refused], ''), {}))).toBe(true);
    expect(isDependencyOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
  });

  it('leaves bugs and refusals of the request alone', () => {
    expect(isDependencyOutage(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyOutage(new QueryFailedError('INSERT', [], Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(false);
    expect(isDependencyOutage(new QueryFailedError('SELECT', [], Object.assign(new Error('syntax error'), { code: '42601' })))).toBe(false);
    expect(isDependencyOutage(undefined)).toBe(false);
  });
});
