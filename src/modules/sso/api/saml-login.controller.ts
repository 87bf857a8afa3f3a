import { Body, Controller, Get, Header, HttpCode, Param, Post, Redirect } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../identity/api/auth.decorators';
import { UserPresenter } from '../../identity/api/user.presenter';
import { SamlLoginService } from '../application/saml-login.service';
import { SamlAcsDto } from './dto/saml-provider.dto';

/**
 * The browser side of SAML sign-in, outside /v1 and without a bearer token: the signed
 * assertion is the credential. Paths are each provider's `service` URLs.
 */
@ApiTags('sso')
@Public()
@Controller('sso/saml/:providerId')
export class SamlLoginController {
  constructor(
    private readonly login: SamlLoginService,
    private readonly users: UserPresenter,
  ) {}

  @Get('start')
  @Redirect()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'startSAMLSignIn',
    summary: "302 to the identity provider's ssoURL with a deflated AuthnRequest (HTTP-Redirect binding); 409 while the provider is pending",
  })
  @ApiResponse({ status: 302, description: "To the identity provider's ssoURL" })
  async start(@Param('providerId') providerId: string) {
    return { url: await this.login.startUrl(providerId), statusCode: 302 };
  }

  @Post('acs')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    operationId: 'consumeSAMLAssertion',
    summary:
      'Assertion consumer (HTTP-POST binding). Verifies the SAMLResponse (signed by the provider certificate, audience = service.entityID), ' +
      'signs the user in by e-mail (creating the user and the SSO membership when needed) and answers a new API token. ' +
      'A refused response is a 401.',
    description:
      'Each response signs in once: its assertion id is recorded (a replay is a 401), and an InResponseTo must name a request ' +
      "issued by this provider's startURL and not yet answered (401 otherwise); IdP-initiated responses (no InResponseTo) are accepted. " +
      'An existing account is matched only if it is a member of the organization or its e-mail domain is one of the ' +
      "organization's emailDomains (403 otherwise). The token acts in this organization only.",
  })
  @ApiOkResponse({
    description: 'Signed in',
    schema: {
      type: 'object',
      required: ['token', 'user', 'organization'],
      properties: {
        token: { type: 'string', description: 'A new API token for the user (Authorization: Bearer); shown once' },
        user: { type: 'object', description: 'The signed-in user (GitBook `User`)' },
        organization: { type: 'string', description: 'Id of the organization the provider belongs to' },
      },
    },
  })
  async acs(@Param('providerId') providerId: string, @Body() body: SamlAcsDto) {
    const { token, user, organizationId } = await this.login.signIn(providerId, body.SAMLResponse);
    return { token, user: this.users.presentOwn(user), organization: organizationId };
  }

  @Get('metadata')
  @Header('Content-Type', 'application/samlmetadata+xml; charset=utf-8')
  @ApiOkResponse({ description: 'SAML 2.0 SP metadata', content: { 'application/samlmetadata+xml': { schema: { type: 'string' } } } })
  @ApiOperation({ operationId: 'getSAMLServiceProviderMetadata', summary: 'Our SP metadata for this provider; its URL is service.entityID' })
  metadata(@Param('providerId') providerId: string) {
    return this.login.metadata(providerId);
  }
}
