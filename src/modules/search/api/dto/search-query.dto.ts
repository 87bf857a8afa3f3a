import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { ListQueryDto, Omittable } from '@app/common';
import { LINK_STATUSES, LinkStatus } from '../../../content/domain/link-status';
import { BROKEN_CONTEXTS, BrokenContext } from '../../application/links.service';

export const SEARCH_QUERY_MAX = 512;

export class SearchQueryDto extends ListQueryDto {
  @ApiProperty({
    maxLength: SEARCH_QUERY_MAX,
    description:
      'Words to find (web search syntax: "quoted phrase", or, -excluded), stemmed in the space language; ' +
      'Chinese, Japanese and Korean text is matched as a substring.',
  })
  @IsString()
  @MaxLength(SEARCH_QUERY_MAX)
  @Matches(/\S/, { message: 'query must not be empty' })
  query: string;
}

export class ListLinksQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: LINK_STATUSES, description: 'Only links with this status' })
  @Omittable()
  @IsIn(LINK_STATUSES)
  status?: LinkStatus;
}

export class ListChangeRequestLinksQueryDto extends ListLinksQueryDto {
  @ApiPropertyOptional({
    enum: BROKEN_CONTEXTS,
    description:
      "`change-request`: only the links broken in the change request's head that the space's current content does " +
      'not have broken (what merging it would break); `space` (the default): every link, as `status` filters them.',
  })
  @Omittable()
  @IsIn(BROKEN_CONTEXTS)
  brokenContext?: BrokenContext;
}

/**
 * The body of a site search: `query` and the scope. The scope's shapes (GitBook's oneOf: `scope`, or the
 * deprecated top-level `mode`, `siteSpaceIds`, `siteSpaceId`) are checked by searchScopeOf.
 */
export class SiteSearchBodyDto {
  @ApiProperty({ maxLength: SEARCH_QUERY_MAX, description: 'Words to find, as in space search' })
  @IsString()
  @MaxLength(SEARCH_QUERY_MAX)
  @Matches(/\S/, { message: 'query must not be empty' })
  query: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      '`{"mode":"all"}`: every site space. `{"mode":"default","currentSiteSpace"?: id}`: the default site space of ' +
      'each section (or of the root); a current site space replaces the default of its own section, and in the ' +
      "other sections the site space whose space has the current one's language, when there is one, replaces the " +
      'default. `{"mode":"specific","siteSpaceIds":[ids]}`: those site spaces. Without a scope (or a deprecated form), `default`.',
  })
  @Allow()
  scope?: unknown;

  @ApiPropertyOptional({ enum: ['specific', 'current', 'all'], deprecated: true, description: 'Deprecated: use scope' })
  @Allow()
  mode?: unknown;

  @ApiPropertyOptional({ type: [String], deprecated: true, description: 'Deprecated: use scope (mode specific)' })
  @Allow()
  siteSpaceIds?: unknown;

  @ApiPropertyOptional({ deprecated: true, description: 'Deprecated: use scope (mode default, currentSiteSpace); with mode current' })
  @Allow()
  siteSpaceId?: unknown;
}
