import { SamlServiceEndpoints } from '../domain/saml-provider';
import { SamlAssertion } from '../domain/saml-identity';

/** One provider as the protocol sees it: the IdP's side and ours. */
export interface SamlSettings {
  idpSsoUrl: string;
  /** PEM. */
  idpCertificate: string;
  service: SamlServiceEndpoints;
}

/**
 * The SAML 2.0 web browser SSO profile, as far as this server needs it (implemented with
 * node-saml in infrastructure). Verification failures are UnauthenticatedError (401) and never
 * carry the SAMLResponse itself.
 */
export abstract class SamlProtocol {
  /** The IdP URL carrying a deflated AuthnRequest (HTTP-Redirect binding), and that request's ID. */
  abstract authorizeUrl(settings: SamlSettings): Promise<{ url: string; requestId: string }>;

  /**
   * Checks a base64 SAMLResponse (HTTP-POST binding): signature by the IdP certificate on the
   * Response or on the Assertion, audience = our entity id, validity window. Returns what the
   * assertion says.
   */
  abstract verifyResponse(settings: SamlSettings, samlResponse: string): Promise<SamlAssertion>;

  /** Our SP metadata for the provider (XML), for IdP administrators. */
  abstract serviceMetadata(service: SamlServiceEndpoints): string;
}
