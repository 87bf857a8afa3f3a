import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';

/** The version in the nearest package.json above this file (the sources and the build sit at different depths). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  }
  return '0.0.0';
}

/** When this server's code was built: the time its compiled entry point was written. */
function buildDate(): string {
  try {
    return statSync(require.main?.filename ?? __filename).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

const information = { version: packageVersion(), build: buildDate() };

/** GitBook's `getApiInformation` (`GET /v1/`): the release of this server, for any caller with a token. */
@ApiTags('system')
@ApiBearerAuth()
@Controller()
export class ApiInformationController {
  @Get()
  @ApiOperation({ operationId: 'getApiInformation', summary: "This server's release (package version) and when its code was built" })
  get() {
    return information;
  }
}
