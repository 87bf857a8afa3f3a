import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { AUTHORING_LIMITS, MAX_CHANGES, MAX_FILES_PER_CHANGE } from '../../domain/changes';

/** Query of POST .../change-requests/{changeRequestId}/content. */
export class UpdateContentQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      '`false` (default here; GitBook announces it as its future default): answer `ChangeRequestContentUpdate`, ' +
      '`{changeRequest, changes, insertedFiles}` (each affected page once with its id, in the order the batch first touched it; ' +
      'the files inserted). `true`: answer only the updated change request.',
  })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  compat?: boolean;
}

const PAGE_FIELDS = {
  title: { type: 'string', minLength: 1, maxLength: AUTHORING_LIMITS.titleLength },
  slug: { type: 'string', minLength: 1, maxLength: AUTHORING_LIMITS.slugLength, description: 'Unique among siblings; a collision is a 400' },
  emoji: { type: 'string', maxLength: AUTHORING_LIMITS.emojiLength, description: '"" removes it' },
  icon: { type: 'string', maxLength: AUTHORING_LIMITS.iconLength, description: '"" removes it' },
  description: { type: 'string', maxLength: AUTHORING_LIMITS.descriptionLength, description: '"" removes it' },
  hidden: { type: 'boolean' },
  noIndex: { type: 'boolean', description: 'Not supported: only false is accepted' },
  noRobotsIndex: { type: 'boolean', description: 'Not supported: only false is accepted' },
  condition: { type: 'string', description: 'Not supported: only "" is accepted' },
};
const DOCUMENT = {
  type: 'object',
  description: '{markdown} (front matter: title, emoji, icon, description, hidden, layout), {document} (GitBook JSON document) or {} (empty)',
  properties: { markdown: { type: 'string', maxLength: AUTHORING_LIMITS.markdownLength }, document: { type: 'object' } },
};

/** For the OpenAPI document only; the body is parsed by parseContentUpdateBody. */
export const UPDATE_CONTENT_BODY_SCHEMA = {
  type: 'object',
  required: ['changes'],
  additionalProperties: false,
  properties: {
    changes: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_CHANGES,
      items: {
        oneOf: [
          {
            type: 'object',
            required: ['operation', 'document'],
            properties: {
              operation: { type: 'string', enum: ['insert_page'] },
              ...PAGE_FIELDS,
              into: { type: 'string', description: 'Parent page id, or the ref of a page inserted earlier in the batch' },
              at: { type: 'integer', minimum: 0 },
              ref: { type: 'string', description: 'Batch-local name: `[x](./<ref>.md)` in any document of the batch links to the page' },
              document: DOCUMENT,
            },
          },
          {
            type: 'object',
            required: ['operation', 'page'],
            properties: {
              operation: { type: 'string', enum: ['update_page'] },
              page: { type: 'string' },
              ...PAGE_FIELDS,
              document: DOCUMENT,
              into: { type: 'string', nullable: true, description: 'New parent; null for the root' },
              at: { type: 'integer', minimum: 0 },
            },
          },
          { type: 'object', required: ['operation', 'page'], properties: { operation: { type: 'string', enum: ['delete_page'] }, page: { type: 'string' } } },
          {
            type: 'object',
            required: ['operation', 'page'],
            properties: {
              operation: { type: 'string', enum: ['revert_page'] },
              page: { type: 'string' },
              revision: { type: 'string', description: "Default: the change request's base revision" },
              block: { type: 'array', items: { type: 'string' }, description: 'Keys of top-level blocks (see the README)' },
            },
          },
          {
            type: 'object',
            required: ['operation', 'files'],
            properties: {
              operation: { type: 'string', enum: ['insert_files'] },
              files: {
                type: 'array',
                minItems: 1,
                maxItems: MAX_FILES_PER_CHANGE,
                items: {
                  type: 'object',
                  required: ['name'],
                  properties: {
                    ref: { type: 'string' },
                    name: { type: 'string', minLength: 1, maxLength: AUTHORING_LIMITS.fileNameLength },
                    contentType: { type: 'string' },
                    url: { type: 'string', format: 'uri', maxLength: AUTHORING_LIMITS.urlLength, description: 'Public http(s) URL (10 MB, 10 s)' },
                    base64: { type: 'string', description: 'At most 1 MB of bytes; needs contentType' },
                  },
                },
              },
            },
          },
        ],
      },
    },
  },
} as const;
