import { InvalidError } from '@app/common';
import { ContentChange } from './changes';

/**
 * Built-in space templates (POST /spaces/{spaceId}/content/template). A template is a small set
 * of pages written in markdown; applying it inserts its pages after the existing ones (slugs
 * made unique when taken), through the same code as `updateChangeRequestContent`, so links
 * between its pages (`./quickstart.md`) become page references.
 *
 * | id                | pages                                                                 | contentRefs |
 * |-------------------|-----------------------------------------------------------------------|-------------|
 * | `blank-page`      | Untitled (empty)                                                      | none |
 * | `getting-started` | Getting started, with subpages Installation, Quickstart, Configuration | none |
 * | `api-reference`   | API reference, with subpages Authentication, Errors, Pagination        | optional `spec`: `{kind: "url", url}` of the OpenAPI document, linked from the first page |
 * | `faq`             | FAQ                                                                   | none |
 */

export interface TemplatePage {
  ref: string;
  markdown: string;
  pages?: TemplatePage[];
}

export interface SpaceTemplate {
  id: string;
  title: string;
  description: string;
  /** Names of the content references the template accepts, and their meaning. */
  contentRefs: Record<string, string>;
  pages(refs: TemplateRefs): TemplatePage[];
}

/** Validated `params.contentRefs`. */
export type TemplateRefs = Record<string, { kind: 'url'; url: string }>;

const GETTING_STARTED: SpaceTemplate = {
  id: 'getting-started',
  title: 'Getting started',
  description: 'An introduction with installation, quickstart and configuration pages.',
  contentRefs: {},
  pages: () => [
    {
      ref: 'getting-started',
      markdown: [
        '---',
        'description: Everything you need to start using the product.',
        '---',
        '',
        '# Getting started',
        '',
        'Welcome! These pages take you from nothing to a working setup:',
        '',
        '1. [Installation](./installation.md): install and check the prerequisites.',
        '2. [Quickstart](./quickstart.md): your first result in five minutes.',
        '3. [Configuration](./configuration.md): every setting explained.',
        '',
      ].join('\n'),
      pages: [
        {
          ref: 'installation',
          markdown: [
            '# Installation',
            '',
            '## Prerequisites',
            '',
            '- A supported operating system',
            '- Network access',
            '',
            '## Install',
            '',
            '```sh',
            '# replace with your install command',
            '```',
            '',
            'Next: [Quickstart](./quickstart.md).',
            '',
          ].join('\n'),
        },
        {
          ref: 'quickstart',
          markdown: [
            '# Quickstart',
            '',
            '{% hint style="info" %}',
            'Complete the [installation](./installation.md) first.',
            '{% endhint %}',
            '',
            '1. Create your first project.',
            '2. Run it.',
            '3. Check the result.',
            '',
          ].join('\n'),
        },
        {
          ref: 'configuration',
          markdown: [
            '# Configuration',
            '',
            '| Setting | Default | Meaning |',
            '| --- | --- | --- |',
            '| `example` | `true` | Describe the setting here. |',
            '',
          ].join('\n'),
        },
      ],
    },
  ],
};

const API_REFERENCE: SpaceTemplate = {
  id: 'api-reference',
  title: 'API reference',
  description: 'An API reference: overview, authentication, errors and pagination.',
  contentRefs: { spec: 'optional {kind: "url", url}: the OpenAPI document, linked from the overview' },
  pages: (refs) => [
    {
      ref: 'api-reference',
      markdown: [
        '# API reference',
        '',
        'The API is organized around REST: predictable resource URLs, JSON bodies and standard HTTP status codes.',
        '',
        ...(refs.spec ? [`The OpenAPI document is [here](${refs.spec.url}).`, ''] : []),
        '- [Authentication](./authentication.md)',
        '- [Errors](./errors.md)',
        '- [Pagination](./pagination.md)',
        '',
      ].join('\n'),
      pages: [
        {
          ref: 'authentication',
          markdown: [
            '# Authentication',
            '',
            'Send your token in the `Authorization` header of every request:',
            '',
            '```http',
            'Authorization: Bearer <token>',
            '```',
            '',
          ].join('\n'),
        },
        {
          ref: 'errors',
          markdown: [
            '# Errors',
            '',
            '| Status | Meaning |',
            '| --- | --- |',
            '| 400 | The request is invalid. |',
            '| 401 | The token is missing or invalid. |',
            '| 404 | The resource does not exist. |',
            '',
          ].join('\n'),
        },
        {
          ref: 'pagination',
          markdown: ['# Pagination', '', 'Lists return `items` and, when there are more, `next.page`: pass it back as `page`.', ''].join('\n'),
        },
      ],
    },
  ],
};

const FAQ: SpaceTemplate = {
  id: 'faq',
  title: 'FAQ',
  description: 'Frequently asked questions.',
  contentRefs: {},
  pages: () => [
    {
      ref: 'faq',
      markdown: [
        '# FAQ',
        '',
        '## How do I get started?',
        '',
        'Describe the first steps here.',
        '',
        '## Where do I get help?',
        '',
        'Tell readers how to reach you.',
        '',
      ].join('\n'),
    },
  ],
};

const BLANK_PAGE: SpaceTemplate = {
  id: 'blank-page',
  title: 'Blank page',
  description: 'One empty page.',
  contentRefs: {},
  pages: () => [{ ref: 'untitled', markdown: '' }],
};

export const SPACE_TEMPLATES: readonly SpaceTemplate[] = [BLANK_PAGE, GETTING_STARTED, API_REFERENCE, FAQ];

export function findTemplate(id: string): SpaceTemplate {
  const template = SPACE_TEMPLATES.find((candidate) => candidate.id === id);
  if (!template) {
    throw new InvalidError(`id: unknown template "${id.slice(0, 100)}"; built-in templates: ${SPACE_TEMPLATES.map((t) => `"${t.id}"`).join(', ')}`);
  }
  return template;
}

const CONTENT_REF_KINDS = ['url', 'file', 'page', 'anchor', 'user', 'collection', 'space', 'reusable-content', 'tag', 'openapi'];

/**
 * `params.contentRefs` for a template: a map of the names it accepts to content references.
 * Only `url` references are taken (no template here points at other content).
 */
export function parseTemplateRefs(template: SpaceTemplate, contentRefs: unknown): TemplateRefs {
  if (contentRefs === undefined) return {};
  if (typeof contentRefs !== 'object' || contentRefs === null || Array.isArray(contentRefs)) {
    throw new InvalidError('params.contentRefs: must be an object of named content references');
  }
  const refs: TemplateRefs = {};
  for (const [name, value] of Object.entries(contentRefs)) {
    const path = `params.contentRefs.${name}`;
    if (!(name in template.contentRefs)) {
      const accepted = Object.keys(template.contentRefs);
      throw new InvalidError(
        `${path}: template "${template.id}" ${accepted.length ? `accepts only ${accepted.map((a) => `"${a}"`).join(', ')}` : 'takes no content references'}`,
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidError(`${path}: must be a content reference object`);
    const ref = value as Record<string, unknown>;
    if (typeof ref.kind !== 'string' || !CONTENT_REF_KINDS.includes(ref.kind)) {
      throw new InvalidError(`${path}.kind: must be one of ${CONTENT_REF_KINDS.map((k) => `"${k}"`).join(', ')}`);
    }
    if (ref.kind !== 'url') throw new InvalidError(`${path}.kind: template "${template.id}" takes a "url" reference here`);
    for (const key of Object.keys(ref)) if (key !== 'kind' && key !== 'url') throw new InvalidError(`${path}.${key}: property should not exist`);
    let url: URL | null = null;
    try {
      url = typeof ref.url === 'string' && ref.url.length <= 2048 ? new URL(ref.url) : null;
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new InvalidError(`${path}.url: must be an absolute http(s) URL of at most 2048 characters`);
    refs[name] = { kind: 'url', url: url.toString() };
  }
  return refs;
}

/** `params` of the request: only `contentRefs`, checked against the template. */
export function parseTemplateParams(template: SpaceTemplate, params: Record<string, unknown> | undefined): TemplateRefs {
  if (params === undefined) return {};
  for (const key of Object.keys(params)) if (key !== 'contentRefs') throw new InvalidError(`params.${key}: property should not exist`);
  return parseTemplateRefs(template, params.contentRefs);
}

/** The template's pages as `insert_page` changes (parents before children, linked by refs). */
export function templateChanges(template: SpaceTemplate, refs: TemplateRefs): ContentChange[] {
  const changes: ContentChange[] = [];
  const visit = (pages: TemplatePage[], parentRef?: string) => {
    for (const page of pages) {
      // `%` never appears in a page path, so the ref cannot collide with an existing page; links
      // between the template's pages are relative paths, which hold wherever the pages land.
      const ref = `%template:${template.id}:${page.ref}`;
      changes.push({
        operation: 'insert_page',
        fields: {},
        ...(parentRef ? { into: parentRef } : {}),
        ref,
        document: { kind: 'markdown', markdown: page.markdown },
      });
      visit(page.pages ?? [], ref);
    }
  };
  visit(template.pages(refs));
  return changes;
}
