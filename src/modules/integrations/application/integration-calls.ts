import { Injectable } from '@nestjs/common';
import { BadGatewayError } from '@app/common';
import { GuardedFetcher, HttpAnswer } from '../../../core/outbound/guarded-fetcher';
import { signatureHeader } from '../../events';
import type { IntegrationOrm } from '../infrastructure/integration.orm';
import { InstallationTokensService } from './installation-tokens.service';
import { IntegrationsService } from './integrations.service';

export const INTEGRATION_SIGNATURE_HEADER = 'x-integration-signature';
export const INSTALLATION_TOKEN_HEADER = 'x-integration-installation-token';

export interface CallLimits {
  timeoutMs: number;
  maxBytes: number;
}

/**
 * Every call to an integration's service: to its published endpoint (or the developer's tunnel in
 * development mode), signed with the integration's secret over the exact body, through the guarded
 * fetcher (address policy, time and size limits, no redirects). A call made for an installation
 * carries a short-lived token of that installation in a header, so the service can call back;
 * the token is never stored with the event nor logged.
 */
@Injectable()
export class IntegrationCalls {
  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly integrations: IntegrationsService,
    private readonly tokens: InstallationTokensService,
  ) {}

  async post(integration: IntegrationOrm, path: '/events' | '/render', body: string, installation: { id: string; organizationId: string } | null, limits: CallLimits): Promise<HttpAnswer> {
    const { signingSecret } = this.integrations.openSecrets(integration);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'docs-platform-integrations/1',
      [INTEGRATION_SIGNATURE_HEADER]: signatureHeader(signingSecret, Math.floor(Date.now() / 1000), body),
      'x-integration-name': integration.name,
    };
    if (installation) headers[INSTALLATION_TOKEN_HEADER] = await this.tokens.forCalls(installation.id);
    return this.fetcher.request(`${this.baseFor(integration, installation?.organizationId ?? null)}${path}`, { method: 'POST', headers, body }, { ...limits, maxRedirects: 0 });
  }

  /** A JSON answer of a 2xx, or a 502 saying what went wrong (never the service's own words as HTML). */
  async postJson(integration: IntegrationOrm, path: '/render', body: string, installation: { id: string; organizationId: string } | null, limits: CallLimits): Promise<unknown> {
    let answer: HttpAnswer;
    try {
      answer = await this.post(integration, path, body, installation, limits);
    } catch (error) {
      throw new BadGatewayError(`The integration "${integration.name}" did not answer: ${(error as Error).message.slice(0, 200)}`);
    }
    if (answer.status < 200 || answer.status > 299) throw new BadGatewayError(`The integration "${integration.name}" answered HTTP ${answer.status}`);
    try {
      return JSON.parse(answer.bytes.toString('utf8'));
    } catch {
      throw new BadGatewayError(`The integration "${integration.name}" answered something other than JSON`);
    }
  }

  /** Development mode sends the owner's calls (or everyone's, with `all`) to the tunnel. */
  private baseFor(integration: IntegrationOrm, organizationId: string | null): string {
    if (integration.devTunnelUrl && (integration.devAll || organizationId === integration.ownerOrganizationId)) return integration.devTunnelUrl;
    return integration.endpoint;
  }
}
