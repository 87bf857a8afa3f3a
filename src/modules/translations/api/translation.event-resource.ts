import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventResources } from '../../events/application/event-resources';
import { TranslationsService } from '../application/translations.service';
import { TranslationPresenter } from './translation.presenter';

/** How a translation appears in webhook payloads: as GET /orgs/{org}/translations/{id} shows it to the webhook's owner. */
@Injectable()
export class TranslationEventResource implements OnModuleInit {
  constructor(
    private readonly resources: EventResources,
    private readonly translations: TranslationsService,
    private readonly presenter: TranslationPresenter,
  ) {}

  onModuleInit(): void {
    this.resources.register('translation', async (ref, viewer) => this.presenter.present(await this.translations.get(viewer, ref.organizationId, ref.id)));
  }
}
