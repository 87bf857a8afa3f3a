import type { RevisionContent } from '../../content/domain/revision-content';

/** A space's first content made from a template. */
export interface TemplateContent {
  /** The built-in template it came from. */
  templateId: string | null;
  content: RevisionContent;
  documents: Map<string, string>;
}

/**
 * Where a new space's first content comes from when it is created with GitBook's
 * `template: {id, params?}`: a port, implemented by the authoring module (which turns a built-in
 * template's pages into content with the same changes an editor's batch applies) and registered
 * globally by it, so spaces never import authoring.
 */
export abstract class SpaceTemplateContent {
  /** The template's content; null for an id that names no built-in template (a blank space). */
  abstract contentFor(templateId: string, params: Record<string, unknown> | undefined, now: string): TemplateContent | null;
}
