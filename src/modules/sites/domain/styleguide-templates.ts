import { InvalidError } from '@app/common';
import { documentHash } from '../../content/domain/document-hash';
import { RevisionContent } from '../../content/domain/revision-content';

/** A built-in starting point for a site's style guide (GitBook's `StyleguideTemplate`). */
export interface StyleguideTemplate {
  id: string;
  title: string;
  subtitle: string;
  emoji: string;
  markdown: string;
}

export const STYLEGUIDE_TEMPLATES: readonly StyleguideTemplate[] = [
  {
    id: 'technical',
    title: 'Technical documentation',
    subtitle: 'Precise, task-focused writing for developer and product docs',
    emoji: '🛠️',
    markdown: [
      '# Style guide',
      '',
      '## Voice and tone',
      '- Address the reader as "you" and use the active voice.',
      '- Write in the present tense: "The command creates a file", not "will create".',
      '- Be direct. Leave out filler such as "simply", "just" or "easily".',
      '',
      '## Structure',
      '- Start each page with one sentence saying what the reader will achieve.',
      '- Use numbered lists for steps the reader follows in order, bullets otherwise.',
      '- Keep paragraphs to four sentences at most.',
      '',
      '## Formatting',
      '- Headings use sentence case: "Create an API token", not "Create An API Token".',
      '- Put commands, file names, field names and values in `code`.',
      '- Show the names of buttons and menus in **bold**, exactly as the interface spells them.',
      '',
      '## Words',
      '- Use one term for one thing throughout the docs.',
      '- Spell out an abbreviation the first time a page uses it.',
      '- Link text says where the link goes; never "click here".',
    ].join('\n'),
  },
  {
    id: 'friendly',
    title: 'Friendly and conversational',
    subtitle: 'Warm, plain language for guides and help centers',
    emoji: '👋',
    markdown: [
      '# Style guide',
      '',
      '## Voice and tone',
      '- Write the way you would explain it to a colleague: plain words, short sentences.',
      '- Use contractions ("you\'ll", "it\'s") and speak to the reader as "you".',
      '- Stay positive: say what the reader can do before what they cannot.',
      '',
      '## Structure',
      '- Open with why the page matters to the reader, in one or two sentences.',
      '- Break long explanations into short sections with clear headings.',
      '- End a task with what the reader can do next.',
      '',
      '## Words',
      '- Prefer everyday words to jargon; explain a technical term when it is needed.',
      '- Avoid idioms and jokes that do not translate well.',
      '- Headings use sentence case.',
    ].join('\n'),
  },
  {
    id: 'concise',
    title: 'Concise reference',
    subtitle: 'Short, scannable entries for API and configuration references',
    emoji: '📘',
    markdown: [
      '# Style guide',
      '',
      '## Entries',
      '- Begin each entry with a fragment saying what the item is or does: "Returns the list of users."',
      '- Give the type, the default and the allowed values of every parameter.',
      '- Keep one example per entry, as short as it can be while still running.',
      '',
      '## Formatting',
      '- Names of parameters, fields and endpoints are in `code`.',
      '- Use tables for parameters and lists for options; no long paragraphs.',
      '- Headings are the item names exactly as the code spells them.',
      '',
      '## Words',
      '- Leave out words that add nothing: "in order to" becomes "to".',
      '- State limits with numbers and units: "at most 100 items", "30 seconds".',
    ].join('\n'),
  },
];

/** The template an id names; a 400 naming the ids there are otherwise. */
export function styleguideTemplate(id: unknown): StyleguideTemplate {
  const template = STYLEGUIDE_TEMPLATES.find((candidate) => candidate.id === id);
  if (!template) throw new InvalidError(`template: one of ${STYLEGUIDE_TEMPLATES.map((t) => `"${t.id}"`).join(', ')}`);
  return template;
}

/** The first content of a style guide space: one page holding the template's rules (empty for a blank guide). */
export function styleguideContent(template: StyleguideTemplate | null, pageId: string, now: string): { content: RevisionContent; documents: Map<string, string> } {
  const body = template ? template.markdown.replace(/^# Style guide\n\n/, '') : '';
  const hash = documentHash(body);
  return {
    content: {
      pages: [{ id: pageId, kind: 'document', title: 'Style guide', slug: 'style-guide', documentHash: hash, createdAt: now, updatedAt: now, pages: [] }],
      files: [],
      variables: {},
      reusableContents: [],
    },
    documents: new Map([[hash, body]]),
  };
}
