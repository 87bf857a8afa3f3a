import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ChangesOnRead } from '../../../core/context/changes-on-read';
import { CurrentUser, Public } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { PdfExportsService } from '../application/pdf-exports.service';
import { PdfQueryDto } from './pdf-query.dto';

const URL_RESPONSE = { schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] } };

/** Each address is a new export row holding a download credential: handing one out is audited (`ChangesOnRead`). */
@ApiTags('pdf')
@Controller()
export class PdfController {
  constructor(private readonly pdfs: PdfExportsService) {}

  @Get('spaces/:spaceId/pdf')
  @ChangesOnRead()
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'getSpacePDF', summary: 'Address of a PDF of the space content (valid one hour)' })
  @ApiOkResponse(URL_RESPONSE)
  forSpace(@CurrentUser() user: User, @Param('spaceId') spaceId: string, @Query() query: PdfQueryDto) {
    return this.pdfs.forSpace(user, spaceId, query);
  }

  @Get('spaces/:spaceId/change-requests/:changeRequestId/pdf')
  @ChangesOnRead()
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'getChangeRequestPDF', summary: 'Address of a PDF of the change request content (valid one hour)' })
  @ApiOkResponse(URL_RESPONSE)
  forChangeRequest(
    @CurrentUser() user: User,
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') changeRequestId: string,
    @Query() query: PdfQueryDto,
  ) {
    return this.pdfs.forChangeRequest(user, spaceId, changeRequestId, query);
  }
}

/** The public download behind the address (outside /v1; the token is the credential). */
@ApiTags('pdf')
@Controller('pdf')
export class PdfDownloadController {
  constructor(private readonly pdfs: PdfExportsService) {}

  @Get(':token')
  @Public()
  @Header('Cache-Control', 'private, no-store')
  @ApiOkResponse({ description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } })
  @ApiOperation({ summary: 'Download a PDF by the address getSpacePDF or getChangeRequestPDF returned' })
  async download(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const { title, pdf } = await this.pdfs.render(token);
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `inline; filename="${title.replace(/[^\w .-]+/g, '_').slice(0, 100) || 'document'}.pdf"`);
    res.send(pdf);
  }
}
