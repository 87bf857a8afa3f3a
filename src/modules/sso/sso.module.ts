import { Inject, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/common';
import { TeamsModule } from '../teams/teams.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { formBody } from './api/form-body.middleware';
import { SamlLoginController } from './api/saml-login.controller';
import { SamlProviderPresenter } from './api/saml-provider.presenter';
import { SamlProvidersController } from './api/saml-providers.controller';
import { SamlLoginService } from './application/saml-login.service';
import { SamlProtocol } from './application/saml-protocol';
import { SamlProvidersService } from './application/saml-providers.service';
import { NodeSamlProtocol } from './infrastructure/node-saml.protocol';
import { SamlMessageIdsRepository } from './infrastructure/saml-message-ids.repository';
import { SamlProvidersRepository } from './infrastructure/saml-providers.repository';

/**
 * SAML single sign-on: organizations' SAML providers (/v1/orgs/{id}/saml, /sso), SSO members,
 * and the public sign-in endpoints under /sso/saml/{providerId}.
 */
@Module({
  imports: [OrganizationsModule, TeamsModule],
  controllers: [SamlProvidersController, SamlLoginController],
  providers: [
    SamlProvidersService,
    SamlLoginService,
    SamlProvidersRepository,
    SamlMessageIdsRepository,
    SamlProviderPresenter,
    { provide: SamlProtocol, useClass: NodeSamlProtocol },
  ],
})
export class SsoModule implements NestModule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The ACS receives an HTML form post; only that route parses urlencoded bodies. */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(formBody(this.config.bodyLimit))
      .forRoutes({ path: 'sso/saml/:providerId/acs', method: RequestMethod.POST });
  }
}
