import { ConflictError, InvalidError } from '@app/common';
import { CHANGE_REQUEST_STATUSES, ChangeRequest, ChangeRequestStatus, parseChangeRequestRef } from './change-request';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const LATER = new Date('2026-01-15T11:00:00.000Z');

function draft(overrides: { subject?: string } = {}) {
  return ChangeRequest.create({
    id: 'cr1',
    spaceId: 'space1',
    organizationId: 'org1',
    number: 7,
    createdBy: 'user1',
    spaceRevision: 'rev1',
    now: NOW,
    ...overrides,
  });
}

function inStatus(status: ChangeRequestStatus): ChangeRequest {
  return ChangeRequest.fromState({ ...draft().changeRequest.toState(), status });
}

describe('ChangeRequest', () => {
  it('starts as a draft based on the space head, counted as a draft', () => {
    const { changeRequest, counters } = draft({ subject: 'Fix typos' });
    expect(changeRequest).toMatchObject({
      status: 'draft',
      subject: 'Fix typos',
      number: 7,
      revisionInitial: 'rev1',
      revision: 'rev1',
      revisionMergedAncestor: 'rev1',
      revisionMerged: null,
      comments: 0,
      description: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(counters).toEqual({ open: 0, draft: 1 });
  });

  it('is unedited until its head moves off the revision it was opened on', () => {
    const { changeRequest } = draft();
    expect(changeRequest.isUnedited).toBe(true);
    expect(changeRequest.withHead('rev2', LATER).isUnedited).toBe(false);
  });

  it('refuses a subject over 100 characters', () => {
    expect(() => draft({ subject: 'x'.repeat(101) })).toThrow(InvalidError);
    expect(draft({ subject: 'x'.repeat(100) }).changeRequest.subject).toHaveLength(100);
  });

  describe('status moves', () => {
    const legal: [ChangeRequestStatus, ChangeRequestStatus, { open: number; draft: number }][] = [
      ['draft', 'open', { open: 1, draft: -1 }],
      ['open', 'draft', { open: -1, draft: 1 }],
      ['draft', 'archived', { open: 0, draft: -1 }],
      ['open', 'archived', { open: -1, draft: 0 }],
      ['archived', 'open', { open: 1, draft: 0 }],
      ['archived', 'draft', { open: 0, draft: 1 }],
    ];
    it.each(legal)('%s -> %s moves the counters by %j', (from, to, delta) => {
      const { changeRequest, counters } = inStatus(from).update({ status: to as never }, LATER);
      expect(changeRequest.status).toBe(to);
      expect(changeRequest.updatedAt).toEqual(LATER);
      expect(counters).toEqual(delta);
    });

    it('setting the current status again is no move', () => {
      for (const status of ['draft', 'open', 'archived'] as const) {
        const { changeRequest, counters } = inStatus(status).update({ status }, LATER);
        expect(changeRequest.status).toBe(status);
        expect(counters).toEqual({ open: 0, draft: 0 });
      }
    });

    it('a merged change request never changes again', () => {
      const merged = inStatus('merged');
      for (const status of ['draft', 'open', 'archived'] as const) {
        expect(() => merged.update({ status }, LATER)).toThrow(ConflictError);
      }
      expect(() => merged.update({ subject: 'new' }, LATER)).toThrow(ConflictError);
    });

    it('canMove matches the rules for every pair', () => {
      const allowed = new Set(legal.map(([a, b]) => `${a}>${b}`));
      for (const from of CHANGE_REQUEST_STATUSES) {
        for (const to of CHANGE_REQUEST_STATUSES) {
          const expected = from === to ? from !== 'merged' : allowed.has(`${from}>${to}`);
          expect([from, to, ChangeRequest.canMove(from, to)]).toEqual([from, to, expected]);
        }
      }
    });
  });

  describe('merge', () => {
    it.each([
      ['open', { open: -1, draft: 0 }],
      ['draft', { open: 0, draft: -1 }],
    ] as const)('from %s: merged, with the resulting revision', (status, delta) => {
      const { changeRequest, counters } = inStatus(status).markMerged('rev9', LATER);
      expect(changeRequest).toMatchObject({ status: 'merged', revisionMerged: 'rev9', mergedAt: LATER, updatedAt: LATER });
      expect(counters).toEqual(delta);
    });

    it('refuses archived and merged change requests', () => {
      expect(() => inStatus('archived').markMerged('rev9', LATER)).toThrow(/archived/);
      expect(() => inStatus('merged').markMerged('rev9', LATER)).toThrow(/already merged/);
    });
  });

  it('edits and updates need an active change request and move the head', () => {
    const cr = inStatus('open');
    expect(cr.withHead('rev2', LATER)).toMatchObject({ revision: 'rev2', revisionMergedAncestor: 'rev1', updatedAt: LATER });
    expect(cr.updatedFrom('rev5', 'rev6', LATER)).toMatchObject({ revision: 'rev6', revisionMergedAncestor: 'rev5' });
    expect(() => inStatus('archived').withHead('rev2', LATER)).toThrow(ConflictError);
    expect(() => inStatus('merged').updatedFrom('rev5', 'rev6', LATER)).toThrow(ConflictError);
  });

  it('is outdated exactly while the space head differs from its base, never once merged', () => {
    const cr = inStatus('open');
    expect(cr.isOutdated('rev1')).toBe(false);
    expect(cr.isOutdated('rev2')).toBe(true);
    expect(cr.updatedFrom('rev2', 'rev3', LATER).isOutdated('rev2')).toBe(false);
    expect(inStatus('merged').isOutdated('rev2')).toBe(false);
  });

  it('keeps its state immutable', () => {
    const cr = inStatus('open');
    cr.update({ status: 'draft', subject: 'x' }, LATER);
    expect(cr.status).toBe('open');
    expect(cr.subject).toBe('');
  });
});

describe('parseChangeRequestRef', () => {
  it('reads numbers as numbers and anything else as an id', () => {
    expect(parseChangeRequestRef('1')).toEqual({ number: 1 });
    expect(parseChangeRequestRef('42')).toEqual({ number: 42 });
    expect(parseChangeRequestRef('0')).toEqual({ id: '0' });
    expect(parseChangeRequestRef('01')).toEqual({ id: '01' });
    expect(parseChangeRequestRef('12345678901')).toEqual({ id: '12345678901' });
    expect(parseChangeRequestRef('aB3xYz')).toEqual({ id: 'aB3xYz' });
  });
});
