import { Body, Controller, Headers, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Allow } from 'class-validator';
import { CurrentUser, Public } from '../../identity/api/auth.decorators';
import { User } from '../../identity/domain/user';
import { StorageUploadsService, UPLOAD_ROUTE } from '../application/storage-uploads.service';

export class StorageUploadDto {
  @ApiProperty({ description: 'The file to come: `{name, type, size}` (its exact size in bytes)' }) @Allow() file: unknown;
  @ApiProperty({ enum: ['customization_font', 'import_file', 'organization_file'] }) @Allow() kind: unknown;
}

@ApiTags('storage')
@Controller()
export class StorageUploadsController {
  constructor(private readonly uploads: StorageUploadsService) {}

  @Post('orgs/:organizationId/storage/upload')
  @ApiBearerAuth()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'generateStorageUploadURL',
    summary: 'An address to PUT one file to, straight into storage',
    description:
      'Members with the `create` role. The address takes one `PUT` of exactly `file.size` bytes with `Content-Type: file.type`, within 15 minutes, ' +
      'no token needed. `customization_font` takes WOFF or WOFF2 files of at most 5 MB; the other kinds any type up to 50 MB. ' +
      '`key` names the file afterwards (for example in a custom font face); a file nothing names is removed by the file sweep.',
  })
  async create(@CurrentUser() user: User, @Param('organizationId') organizationId: string, @Body() body: StorageUploadDto) {
    return { object: 'storage-signed-url' as const, ...(await this.uploads.createAddress(user, organizationId, body)) };
  }

  @Public()
  @Put(`${UPLOAD_ROUTE}/:token`)
  @HttpCode(200)
  @ApiConsumes('*/*')
  @ApiBody({ description: 'The file, exactly as announced', schema: { type: 'string', format: 'binary' } })
  @ApiOperation({
    operationId: 'uploadToStorageURL',
    summary: 'Upload the bytes to an address from generateStorageUploadURL (no token: the address is the credential)',
    description: 'Answers 404 for an unknown or expired address, 409 when it already took its file, 413 past the announced size, 400 for a different type or a short body.',
  })
  @ApiResponse({ status: 200, description: 'Stored' })
  async upload(@Param('token') token: string, @Headers('content-type') contentType: string | undefined, @Req() req: Request): Promise<void> {
    await this.uploads.receive(token, contentType, req);
  }
}
