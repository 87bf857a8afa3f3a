import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity/api/auth.decorators';
import { PublishedSitesService } from '../application/published-sites.service';
import { ResolvePublishedUrlDto, PublishedUrlQueryDto } from './dto/sites.dto';

const ABOUT =
  'Resolves a published address (this server\'s `/sites/{basename}/...` or a site\'s own host) to its site, section, site space, ' +
  'space, base paths and page path, with a one-hour site token carrying the visitor\'s claims. No token needed: it reveals only what ' +
  'a reader of that address may see (unpublished sites, wrong share keys: 404; visitor-auth without a valid JWT: 401, or a redirect to the ' +
  "site's sign-in URL with `redirectOnError`).";

@ApiTags('sites')
@Controller('urls/published')
export class PublishedUrlsController {
  constructor(private readonly published: PublishedSitesService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiOperation({ operationId: 'resolvePublishedContentByUrl', description: ABOUT })
  resolve(@Body() body: ResolvePublishedUrlDto) {
    const visitor = (typeof body.visitor === 'object' && body.visitor ? body.visitor : {}) as { jwtToken?: unknown; unsignedClaims?: unknown };
    return this.published.lookup(
      body.url,
      {
        jwtToken: typeof visitor.jwtToken === 'string' ? visitor.jwtToken : undefined,
        unsignedClaims: typeof visitor.unsignedClaims === 'object' && visitor.unsignedClaims && !Array.isArray(visitor.unsignedClaims) ? (visitor.unsignedClaims as Record<string, unknown>) : {},
      },
      body.redirectOnError ?? false,
    );
  }

  @Get()
  @Public()
  @ApiOperation({ operationId: 'getPublishedContentByUrl', deprecated: true, description: ABOUT })
  resolveByQuery(@Query() query: PublishedUrlQueryDto) {
    return this.published.lookup(query.url, { jwtToken: query.visitorAuthToken, unsignedClaims: {} }, query.redirectOnError ?? false);
  }
}
