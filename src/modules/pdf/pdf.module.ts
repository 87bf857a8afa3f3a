import { Module } from '@nestjs/common';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { ContentCoreModule } from '../content/content-core.module';
import { SpacesModule } from '../spaces/spaces.module';
import { PdfController, PdfDownloadController } from './api/pdf.controller';
import { PdfExportsService } from './application/pdf-exports.service';
import { PdfExportsRepository } from './infrastructure/pdf-exports.repository';

/** PDFs of space and change request content. */
@Module({
  imports: [SpacesModule, ChangeRequestsModule, ContentCoreModule],
  controllers: [PdfController, PdfDownloadController],
  providers: [PdfExportsService, PdfExportsRepository],
})
export class PdfModule {}
