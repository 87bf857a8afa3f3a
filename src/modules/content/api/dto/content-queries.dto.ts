import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { ListQueryDto } from '@app/common';

/** `true` / `false` in the query string; anything else stays as given and fails validation. */
const QueryBoolean = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

const METADATA =
  'GitBook: include git metadata (default true). This server has no Git Sync metadata on content, so the flag changes nothing.';
const COMPUTED =
  'GitBook: compute computed content (default true). This server has no computed pages, so the flag changes nothing.';

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
