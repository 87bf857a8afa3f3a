import { ForbiddenError, InvalidError, NotFoundError } from '@app/common';
import { assertMayWriteAgentInstructions, requireAgentInstructions, writeAgentInstructions } from './agent-instructions';

const NOW = new Date('2026-01-15T10:00:00.000Z');
const DOC = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [] }] };

describe('agent instructions', () => {
  it('records the validated document, its author and the time', () => {
    expect(writeAgentInstructions('o1', DOC, 'u1', NOW)).toEqual({ organizationId: 'o1', instructions: DOC, updatedAt: NOW, updatedBy: 'u1' });
    expect(() => writeAgentInstructions('o1', { ...DOC, object: 'doc' }, 'u1', NOW)).toThrow(InvalidError);
  });

  it('are changed by admins only', () => {
    expect(() => assertMayWriteAgentInstructions('admin')).not.toThrow();
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as const) {
      expect(() => assertMayWriteAgentInstructions(role)).toThrow(ForbiddenError);
    }
  });

  it('are not found until first written', () => {
    expect(() => requireAgentInstructions(null, 'o1')).toThrow(NotFoundError);
    const value = writeAgentInstructions('o1', DOC, 'u1', NOW);
    expect(requireAgentInstructions(value, 'o1')).toBe(value);
  });
});
