import { OpenAPISpecEventResource } from './api/openapi-spec.event-resource';
import { Module } from '@nestjs/common';
import { OpenAPISpecsController } from './api/openapi-specs.controller';
import { OpenAPISpecPresenter } from './api/openapi-spec.presenter';
import { PublishedOpenAPIController } from './api/published-openapi.controller';
import { OpenAPIChanges } from './application/openapi-changes';
import { OpenAPIProcessor } from './application/openapi-processor.service';
import { OpenAPISpecsService } from './application/openapi-specs.service';
import { ReferenceModels } from './application/reference-models';
import { OpenAPISpecsRepository } from './infrastructure/openapi-specs.repository';
import { SpecParser } from './infrastructure/spec-parser';

/** OpenAPI specifications: the API, the public reference pages, and the processor the worker runs. */
@Module({
  controllers: [OpenAPISpecsController, PublishedOpenAPIController],
  providers: [OpenAPISpecEventResource, OpenAPISpecsService, OpenAPISpecsRepository, OpenAPISpecPresenter, OpenAPIProcessor, SpecParser, OpenAPIChanges, ReferenceModels],
  exports: [OpenAPISpecsService, ReferenceModels, OpenAPIProcessor, OpenAPIChanges],
})
export class OpenAPIModule {}
