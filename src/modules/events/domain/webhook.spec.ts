import { InvalidError } from '@app/common';
import { Webhook, retryDelayMs } from './webhook';
import { signatureHeader, verifySignature } from './webhook-signature';

const now = new Date('2026-01-01T00:00:00Z');
const make = (over: Partial<Parameters<typeof Webhook.create>[0]> = {}) =>
  Webhook.create({ id: 'w1', organizationId: 'o1', url: 'https://example.com/hook', events: ['space.updated'], createdBy: 'u1', now, ...over });

describe('Webhook', () => {
  it('takes http(s) URLs without credentials and known events, once each', () => {
    expect(make({ events: ['space.updated', 'space.updated', 'comment.created'] }).toState().events).toEqual(['space.updated', 'comment.created']);
    for (const url of ['ftp://example.com', 'https://user:secret@example.com/x', 'nope']) expect(() => make({ url })).toThrow(InvalidError);
    expect(() => make({ events: [] })).toThrow(/at least one/);
    expect(() => make({ events: ['space.exploded'] })).toThrow(/space.exploded/);
    expect(() => make({ spaceIds: [] })).toThrow(/spaces/);
  });

  it('wants the events it names, for the spaces it names, while active', () => {
    const all = make();
    expect(all.wants('space.updated', 's1')).toBe(true);
    expect(all.wants('space.updated', null)).toBe(true);
    expect(all.wants('space.deleted', 's1')).toBe(false);
    const filtered = make({ spaceIds: ['s1'] });
    expect(filtered.wants('space.updated', 's1')).toBe(true);
    expect(filtered.wants('space.updated', 's2')).toBe(false);
    expect(filtered.wants('space.updated', null)).toBe(false);
    const off = make({ active: false });
    expect(off.wants('space.updated', 's1')).toBe(false);
  });

  it('turning it on again clears a disabling and the failure record', () => {
    const hook = Webhook.restore({ ...make().toState(), active: false, disabledAt: now, disabledReason: 'failed', failingSince: now });
    hook.update({ active: true }, now);
    expect(hook.toState()).toMatchObject({ active: true, disabledAt: null, disabledReason: null, failingSince: null });
  });
});

describe('retry delays', () => {
  it('double from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 10, 40].map((n) => retryDelayMs(n, 30_000, 3_600_000))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 3_600_000, 3_600_000]);
  });

  it('fill 24 hours with about 30 tries at the defaults', () => {
    let elapsed = 0;
    let tries = 0;
    while (elapsed < 24 * 3_600_000) elapsed += retryDelayMs(++tries, 30_000, 3_600_000);
    expect(tries).toBeGreaterThanOrEqual(25);
    expect(tries).toBeLessThanOrEqual(35);
  });
});

describe('signatures', () => {
  it('verify over timestamp and body, in a time window', () => {
    const header = signatureHeader('whsec_x', 1_700_000_000, '{"a":1}');
    expect(verifySignature('whsec_x', header, '{"a":1}', 1_700_000_100)).toBe(true);
    expect(verifySignature('whsec_x', header, '{"a":2}', 1_700_000_100)).toBe(false);
    expect(verifySignature('whsec_y', header, '{"a":1}', 1_700_000_100)).toBe(false);
    expect(verifySignature('whsec_x', header, '{"a":1}', 1_700_001_000)).toBe(false);
    expect(verifySignature('whsec_x', 't=abc,v1=00', '{"a":1}', 1_700_000_000)).toBe(false);
    expect(verifySignature('whsec_x', header.replace('t=1700000000', 't=1700000001'), '{"a":1}', 1_700_000_000)).toBe(false);
  });
});
