import { newId } from '@app/common';
import { RevisionContent, emptyContent } from '../../../content/domain/revision-content';
import { applyChanges } from './apply-changes';
import { SPACE_TEMPLATES, parseTemplateParams, templateChanges } from './templates';

/**
 * The first content of a space created with GitBook's `template: {id, params?}`
 * (`createSpace`). GitBook's template ids name templates of its own catalogue, which this
 * server does not have: an id of a built-in template (see templates.ts) gives that template's
 * pages; any other id gives a blank space (one empty page), as if no template was asked for.
 * `params` is checked against a built-in template (its `contentRefs`), ignored otherwise.
 */
export function spaceTemplateContent(
  templateId: string,
  params: Record<string, unknown> | undefined,
  now: string,
): { templateId: string | null; content: RevisionContent; documents: Map<string, string> } | null {
  const template = SPACE_TEMPLATES.find((candidate) => candidate.id === templateId);
  if (!template) return null;
  const applied = applyChanges({
    content: emptyContent(),
    documents: new Map(),
    changes: templateChanges(template, parseTemplateParams(template, params)),
    baseRevisionId: '',
    revisions: new Map(),
    files: new Map(),
    now,
    newId: () => newId(),
  });
  return { templateId: template.id, content: applied.content, documents: applied.documents };
}
