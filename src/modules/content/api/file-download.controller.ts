import { Controller, Get, Headers, HttpStatus, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { byteRange } from './byte-range';
import { Public } from '../../identity/api/auth.decorators';
import { DOWNLOAD_ROUTE, FilesService } from '../application/files.service';

/**
 * The `downloadURL` of content files: public (links in published content and in clients must
 * work without a token), so the only protection is the 256-bit random key in the path. Files are
 * immutable and served inert: a sandboxing CSP and `nosniff`, so an uploaded HTML or SVG file
 * cannot run script on this origin.
 */
@ApiTags('content')
@Controller(DOWNLOAD_ROUTE)
export class FileDownloadController {
  constructor(private readonly files: FilesService) {}

  @Public()
  @Get(':key')
  @ApiOperation({
    operationId: 'downloadFile',
    summary: 'The bytes of a content file (the `downloadURL` of a file); no token needed',
    description:
      'Answers 404 once no revision names the file any more: when the last space naming it is purged, its bytes are deleted. ' +
      'The key is a credential: access logs show it as `[redacted]`.',
  })
  @ApiHeader({ name: 'Range', required: false, description: 'One range, `bytes=start-end`, `bytes=start-` or `bytes=-suffix`; several ranges get the whole file' })
  @ApiOkResponse({ description: 'The file, with its content type', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 206, description: 'The requested range (`Content-Range`)', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 416, description: 'The range lies past the end of the file (`Content-Range: bytes */size`)' })
  async download(@Param('key') key: string, @Headers('range') rangeHeader: string | undefined, @Res({ passthrough: true }) res: Response): Promise<StreamableFile | undefined> {
    const { metadata, open } = await this.files.open(key);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
    res.setHeader('Accept-Ranges', 'bytes');
    const range = byteRange(rangeHeader, metadata.size);
    if (range === 'unsatisfiable') {
      res.status(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE).setHeader('Content-Range', `bytes */${metadata.size}`);
      res.end();
      return undefined;
    }
    if (range) {
      res.status(HttpStatus.PARTIAL_CONTENT).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${metadata.size}`);
    }
    return new StreamableFile(open(range ?? undefined), {
      type: metadata.contentType,
      length: range ? range.end - range.start + 1 : metadata.size,
      disposition: `inline; filename*=UTF-8''${rfc5987(metadata.name)}`,
    });
  }
}

/** A file name as an RFC 5987 `ext-value` (percent-encoded UTF-8). */
function rfc5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
