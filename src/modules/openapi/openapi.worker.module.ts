import { Module } from '@nestjs/common';
import { OpenAPIModule } from './openapi.module';
import { OpenAPIRefreshScheduler, ProcessOpenAPISpecHandler, RefreshOpenAPISpecsHandler } from './infrastructure/openapi.handlers';

/** OpenAPI processing as the worker runs it. */
@Module({ imports: [OpenAPIModule], providers: [ProcessOpenAPISpecHandler, RefreshOpenAPISpecsHandler, OpenAPIRefreshScheduler] })
export class OpenAPIWorkerModule {}
