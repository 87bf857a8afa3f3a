import { InvalidError } from '@app/common';
import { CHANGE_REQUEST_SUBJECT_MAX } from '../../domain/change-request';
import { CreateChangeRequestInput } from '../../application/change-requests.service';

/**
 * The body of POST /spaces/{spaceId}/change-requests. GitBook's contract allows additional
 * properties here, so unknown properties (and `agentTaskId`: there are no agents) are accepted
 * and ignored; the known ones are validated. `template` is refused: templates are applied with
 * POST /spaces/{spaceId}/content/template and the change request id.
 */
export function parseCreateChangeRequestBody(body: unknown): CreateChangeRequestInput {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new InvalidError('The body must be a JSON object');
  const { subject, template, conversationsIssuesCluster } = body as Record<string, unknown>;
  if (template !== undefined) {
    throw new InvalidError(
      'template: not supported when creating a change request; create it, then POST /spaces/{spaceId}/content/template with its changeRequestId',
    );
  }
  const input: CreateChangeRequestInput = {};
  if (conversationsIssuesCluster !== undefined) {
    if (typeof conversationsIssuesCluster !== 'string' || conversationsIssuesCluster.length < 1 || conversationsIssuesCluster.length > 64) {
      throw new InvalidError('conversationsIssuesCluster: must be the id of an issues cluster');
    }
    input.conversationsIssuesCluster = conversationsIssuesCluster;
  }
  if (subject === undefined) return input;
  if (typeof subject !== 'string') throw new InvalidError('subject: must be a string');
  if (subject.length > CHANGE_REQUEST_SUBJECT_MAX) {
    throw new InvalidError(`subject: must be shorter than or equal to ${CHANGE_REQUEST_SUBJECT_MAX} characters`);
  }
  return { ...input, subject };
}

/** For the OpenAPI document only. */
export const CREATE_CHANGE_REQUEST_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: true,
  properties: {
    subject: { type: 'string', maxLength: CHANGE_REQUEST_SUBJECT_MAX, description: 'Subject of the change request' },
    conversationsIssuesCluster: { type: 'string', maxLength: 64, description: 'Ours: the id of an issues cluster (conversation insights) this change request addresses' },
  },
} as const;
