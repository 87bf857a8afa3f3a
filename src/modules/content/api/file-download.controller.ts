import { Controller, Get, Headers, HttpStatus, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { byteRange } from './byte-range';
import { Public } from '../../identity/api/auth.decorators';
import { DIRECT_DOWNLOAD_SECONDS, DOWNLOAD_ROUTE, FilesService } from '../application/files.service';
import { IMMUTABLE, inlineDisposition } from '../domain/file-serving';

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
  @ApiResponse({
    status: 302,
    description: 'With `S3_REDIRECT_DOWNLOADS=true`: the bucket serves the bytes (and ranges) at `Location`, a presigned address valid five minutes',
  })
  @ApiResponse({ status: 416, description: 'The range lies past the end of the file (`Content-Range: bytes */size`)' })
  async download(@Param('key') key: string, @Headers('range') rangeHeader: string | undefined, @Res({ passthrough: true }) res: Response): Promise<StreamableFile | undefined> {
    const { file, direct } = await this.files.download(key);
    if (direct) {
      // The address expires: a cached redirect must not outlive it.
      res.setHeader('Cache-Control', `private, max-age=${DIRECT_DOWNLOAD_SECONDS - 60}`);
      res.redirect(HttpStatus.FOUND, direct);
      return undefined;
    }
    const { metadata, open } = file;
    res.setHeader('Cache-Control', IMMUTABLE);
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
      disposition: inlineDisposition(metadata.name),
    });
  }
}
