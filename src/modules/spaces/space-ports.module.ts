import { Global, Injectable, Module } from '@nestjs/common';
import { WebhookSpaceFilter } from '../events/application/webhook-space-filter';
import type { User } from '../identity/domain/user';
import { SpacesService } from './application/spaces.service';
import { SpacesModule } from './spaces.module';

@Injectable()
export class SpacesWebhookFilter extends WebhookSpaceFilter {
  constructor(private readonly spaces: SpacesService) {
    super();
  }

  async visibleSpaces(caller: User, organizationId: string, spaceIds: string[]): Promise<Set<string>> {
    return new Set((await this.spaces.viewsInOrganization(caller, organizationId, spaceIds)).keys());
  }
}

/**
 * The ports lower modules declare and the spaces module implements, provided everywhere (global)
 * so those modules need not import SpacesModule: the webhooks' space filter.
 */
@Global()
@Module({
  imports: [SpacesModule],
  providers: [{ provide: WebhookSpaceFilter, useClass: SpacesWebhookFilter }],
  exports: [WebhookSpaceFilter],
})
export class SpacePortsModule {}
