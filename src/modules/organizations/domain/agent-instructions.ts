import { ForbiddenError, NotFoundError } from '@app/common';
import { OrgRole } from '../../access/domain/roles';
import { RichTextDocument, parseRichTextDocument } from './rich-text';

/** The organization's instructions to its Docs agent (one document per organization). */
export interface AgentInstructions {
  organizationId: string;
  instructions: RichTextDocument;
  updatedAt: Date;
  /** User id of the member who last replaced them. */
  updatedBy: string;
}

/** Replacing the instructions: the document is validated, the author and time recorded. */
export function writeAgentInstructions(organizationId: string, document: unknown, userId: string, now: Date): AgentInstructions {
  return { organizationId, instructions: parseRichTextDocument(document, 'instructions'), updatedAt: now, updatedBy: userId };
}

/**
 * Every member (guests included) may read them, as the agent answers every member with them.
 * They steer answers given organization-wide, so only admins change them.
 */
export function assertMayWriteAgentInstructions(role: OrgRole): void {
  if (role !== 'admin') throw new ForbiddenError('Only admins of the organization can change its agent instructions');
}

/**
 * The contract's `OrganizationAgentInstructions` needs `updatedAt` and `updatedBy`, which
 * instructions never written do not have; such an organization answers 404 rather than an
 * invented author.
 */
export function requireAgentInstructions(found: AgentInstructions | null, organizationId: string): AgentInstructions {
  if (!found) throw new NotFoundError(`Organization "${organizationId}" has no agent instructions yet; an admin can PUT them`);
  return found;
}
