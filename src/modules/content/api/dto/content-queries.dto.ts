import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { ListQueryDto } from '@app/common';

/** `true` / `false` in the query string; anything else stays as given and fails validation. */
const QueryBoolean = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

const METADATA =
  'GitBook: include git metadata (default true). This server has no Git Sync metadata on content, so the flag changes nothing.';
const COMPUTED =
  'GitBook: compute computed content (default true). Computed pages are always answered as their source (`type: computed`); ' +
  'POST /spaces/{spaceId}/content/computed/revision expands one. The flag changes nothing.';

/** GitBook's two content read flags, accepted and validated on every content read. */
export class ContentFlagsQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: true, description: METADATA })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  metadata?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: COMPUTED })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  computed?: boolean;
}

export class ListFilesQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: true, description: METADATA })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  metadata?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: COMPUTED })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  computed?: boolean;
}

const DEREFERENCED =
  'GitBook: expand references to other content (`true`) or only reusable contents (`reusable-contents`). ' +
  'Documents here are returned as stored, so any accepted value gives the same document.';

export class GetPageQueryDto extends ContentFlagsQueryDto {
  @ApiPropertyOptional({
    enum: ['document', 'markdown'],
    default: 'document',
    description: '`document`: the body as GitBook document nodes; `markdown`: front matter (description, icon, hidden, layout) and body',
  })
  @IsOptional()
  @IsIn(['document', 'markdown'])
  format?: 'document' | 'markdown';

  @ApiPropertyOptional({
    name: 'format.markdown.refs',
    enum: ['relative', 'stable'],
    default: 'relative',
    description: 'GitBook: how references are written in markdown output. Markdown here keeps links as authored, so it changes nothing.',
  })
  @IsOptional()
  @IsIn(['relative', 'stable'])
  'format.markdown.refs'?: 'relative' | 'stable';

  @ApiPropertyOptional({ enum: ['true', 'false', 'reusable-contents'], default: 'false', description: DEREFERENCED })
  @IsOptional()
  @IsIn(['true', 'false', 'reusable-contents'])
  dereferenced?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false', 'deterministic-only'],
    default: 'false',
    description:
      'GitBook: evaluate expressions in the document (`deterministic-only`: only those with deterministic inputs). ' +
      'Documents here hold no expressions, so any accepted value gives the same page.',
  })
  @IsOptional()
  @IsIn(['true', 'false', 'deterministic-only'])
  evaluated?: 'true' | 'false' | 'deterministic-only';
}


/** Reads of one page by path: GitBook's page read parameters. */
export class GetPageByPathQueryDto extends GetPageQueryDto {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'GitBook: serve cached git metadata. No git metadata here.' })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean()
  cachedMetadata?: boolean;
}

/** Reads of a bare JSON document (a page's or a reusable content's). */
export class DocumentReadQueryDto {
  @ApiPropertyOptional({ enum: ['true', 'false', 'deterministic-only'], default: 'false', description: 'GitBook: evaluate expressions. Documents here hold none.' })
  @IsOptional()
  @IsIn(['true', 'false', 'deterministic-only'])
  evaluated?: string;

  @ApiPropertyOptional({ enum: ['true', 'false', 'reusable-contents'], default: 'false', description: DEREFERENCED })
  @IsOptional()
  @IsIn(['true', 'false', 'reusable-contents'])
  dereferenced?: string;
}

/** `GET /spaces/{spaceId}/documents/{documentId}`. */
export class DocumentByIdQueryDto {
  @ApiPropertyOptional({ enum: ['current', 'next'], description: 'GitBook: document schema version. This server has one schema; both give the same document.' })
  @IsOptional()
  @IsIn(['current', 'next'])
  schema?: 'current' | 'next';
}

/** Semantic changes reads: at most `limit` changes (default 10, at most 1000). */
export class ChangesQueryDto extends ContentFlagsQueryDto {
  @ApiPropertyOptional({ type: Number, default: 10, minimum: 1, maximum: 1000, description: 'At most this many changes; `more` counts the rest' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}
