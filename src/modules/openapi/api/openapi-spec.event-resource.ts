import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { OpenAPISpecsService } from '../application/openapi-specs.service';
import { OpenAPISpecPresenter } from './openapi-spec.presenter';

/** How a spec appears in webhook payloads: as GET /orgs/{org}/openapi/{slug} shows it to the webhook's owner. */
@Injectable()
export class OpenAPISpecEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly specs: OpenAPISpecsService,
    private readonly presenter: OpenAPISpecPresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('openapi-spec', async (ref, viewer) =>
      typeof ref.data.slug === 'string' ? this.presenter.present(await this.specs.get(viewer, ref.organizationId, ref.data.slug)) : null,
    );
  }
}
