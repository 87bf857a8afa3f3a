import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { SpacePresenter } from '../../spaces/api/space.presenter';
import { SiteStyleguideService } from '../application/site-styleguide.service';
import { STYLEGUIDE_TEMPLATES } from '../domain/styleguide-templates';
import { CreateStyleguideDto } from './dto/sites.dto';
import { SitePresenter } from './site.presenter';

/** Style guides: a space of writing rules a site names, and the built-in templates to start one from. */
@ApiTags('sites')
@ApiBearerAuth()
@Controller('orgs/:organizationId')
export class SiteStyleguideController {
  constructor(
    private readonly styleguides: SiteStyleguideService,
    private readonly spaces: SpacePresenter,
    private readonly sites: SitePresenter,
  ) {}

  @Get('styleguide-templates')
  @ApiOperation({ operationId: 'listStyleguideTemplates', summary: 'The built-in style guide templates', description: 'The same list for every organization; members only (404 otherwise).' })
  async templates(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    await this.styleguides.assertMember(user, organizationId);
    return { templates: STYLEGUIDE_TEMPLATES.map((t) => ({ id: t.id, title: t.title, subtitle: t.subtitle, emoji: t.emoji, markdown: t.markdown })) };
  }

  @Get('styleguides')
  @ApiOperation({
    operationId: 'listOrganizationStyleguides',
    summary: "The organization's style guide spaces and the sites using each",
    description: 'Only style guide spaces the caller may see are listed; oldest site first.',
  })
  async list(@CurrentUser() user: User, @Param('organizationId') organizationId: string) {
    const styleguides = await this.styleguides.list(user, organizationId);
    return { styleguides: styleguides.map(({ space, sites }) => ({ space: this.spaces.present(space), sites: sites.map((site) => this.sites.site(site)) })) };
  }

  @Post('sites/:siteId/styleguide')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createSiteStyleguideById',
    summary: "Make sure the site has a style guide space, and return it",
    description:
      'Idempotent: a site whose style guide space still exists gets it back. Otherwise a new space "Style guide" is made at the ' +
      'organization root with one page of rules from `template` (see `listStyleguideTemplates`; omitted: blank), and the site names it ' +
      '(`styleguide`), in one transaction. Needs the `create` organization role; an unknown template is a 400.',
  })
  async ensure(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Param('siteId') siteId: string, @Body() body: CreateStyleguideDto) {
    return this.spaces.present(await this.styleguides.ensure(user, organizationId, siteId, body ?? {}));
  }
}
