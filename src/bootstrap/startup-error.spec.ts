import { describeCause, redactUrl } from './startup-error';

describe('start-up error helpers', () => {
  it('drops the password (and query options) from a connection URL, keeps the rest', () => {
    expect(redactUrl('postgres://docs:s3cr%40t@db.internal:5433/docs_platform?sslmode=require')).toBe('postgres://docs@db.internal:5433/docs_platform');
    expect(redactUrl('redis://:hunter2@cache:6379/2')).toBe('redis://cache:6379/2');
    expect(redactUrl('not a url')).toBe('(unparseable URL)');
  });

  it("names the cause even for Node's AggregateError, whose message is empty", () => {
    const aggregate = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], ''), { code: 'ECONNREFUSED' });
    expect(describeCause(aggregate)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
    expect(describeCause(new Error('password authentication failed for user "docs"'))).toBe('password authentication failed for user "docs"');
  });
});
