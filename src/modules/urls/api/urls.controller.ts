import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { ContentByUrlService } from '../application/content-by-url.service';
import { EmbedsService } from '../application/embeds.service';
import { ContentByUrlPresenter } from './content-by-url.presenter';
import { UrlQueryDto } from './dto/url-query.dto';

@ApiTags('urls')
@ApiBearerAuth()
@Controller('urls')
export class UrlsController {
  constructor(
    private readonly content: ContentByUrlService,
    private readonly embeds: EmbedsService,
    private readonly presenter: ContentByUrlPresenter,
  ) {}

  @Get('content')
  @ApiOperation({
    operationId: 'getContentByUrl',
    summary: 'Resolve a URL to a content (space, collection, page)',
    description:
      "Reads this server's app addresses (`urls.app` of a collection, space, change request or page; `/o/{organizationId}/...` forms too) " +
      "and published site addresses (this server's `/sites/...` or a site's own host, mapped through the site's whole structure). " +
      'Answers `{collection}` or `{space, changeRequest?, page?}` (a page when the address has a page path). An address that is not an ' +
      'absolute http(s) URL is a 400; one that names nothing, or nothing the caller may see, is a 404.',
  })
  async contentByUrl(@CurrentUser() user: User, @Query() query: UrlQueryDto) {
    return this.presenter.present(await this.content.resolve(user, query.url));
  }

  @Get('embed')
  @ApiOperation({
    operationId: 'getEmbedByUrl',
    summary: 'Resolve a URL to an embed',
    description:
      "This server's own addresses become a `link` card of the content they name (or of the bare address when the caller may not see it); " +
      'they are never fetched. Other addresses are fetched through the outbound guard (public addresses only, 5 s, the first 512 kB): the ' +
      "title comes from oEmbed, Open Graph, Twitter or `<title>`, the site from oEmbed's provider or `og:site_name`, else the host; an oEmbed " +
      'answer of type `rich` or `video` with HTML gives a `rich` embed. A page that cannot be fetched still answers a `link` card of the address.',
  })
  embed(@CurrentUser() user: User, @Query() query: UrlQueryDto) {
    return this.embeds.embed(user, query.url);
  }
}
