import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../identity/api/auth.decorators';
import { OpenAPISpecsService } from '../application/openapi-specs.service';
import { referenceModel } from '../domain/reference-model';
import { renderReferencePage } from '../domain/render-reference';
import { OpenAPISpecPresenter } from './openapi-spec.presenter';

/** Public specs for readers without a token (outside /v1): a rendered reference and the document. Private ones are 404. */
@ApiTags('openapi')
@Controller('openapi/:organizationId/:specSlug')
export class PublishedOpenAPIController {
  constructor(
    private readonly specs: OpenAPISpecsService,
    private readonly presenter: OpenAPISpecPresenter,
  ) {}

  @Get()
  @Public()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ description: 'The API reference', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiOperation({ summary: "A public specification's latest version as an API reference page" })
  async page(@Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Res() res: Response): Promise<void> {
    const { spec, version } = await this.specs.publicContent(organizationId, slug);
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'");
    res.type('html').send(renderReferencePage(referenceModel(version.document), `${this.presenter.publicUrl(spec)}/openapi.json`));
  }

  @Get('openapi.json')
  @Public()
  @Header('Cache-Control', 'public, max-age=60')
  @Header('Access-Control-Allow-Origin', '*')
  @ApiOkResponse({ description: 'The bundled document', content: { 'application/json': { schema: { type: 'object' } } } })
  @ApiOperation({ summary: "A public specification's latest version, bundled" })
  async latest(@Param('organizationId') organizationId: string, @Param('specSlug') slug: string) {
    return (await this.specs.publicContent(organizationId, slug)).version.document;
  }

  @Get('versions/:versionId/openapi.json')
  @Public()
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @Header('Access-Control-Allow-Origin', '*')
  @ApiOkResponse({ description: 'The bundled document of that version', content: { 'application/json': { schema: { type: 'object' } } } })
  @ApiOperation({ summary: 'A version of a public specification, bundled' })
  async version(@Param('organizationId') organizationId: string, @Param('specSlug') slug: string, @Param('versionId') versionId: string) {
    return (await this.specs.publicContent(organizationId, slug, versionId)).version.document;
  }
}
