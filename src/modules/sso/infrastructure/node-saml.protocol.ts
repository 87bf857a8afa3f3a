import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SAML, SamlConfig, SamlStatusError, ValidateInResponseTo, generateServiceProviderMetadata } from '@node-saml/node-saml';
import { UnauthenticatedError } from '@app/common';
import { SamlProtocol, SamlSettings } from '../application/saml-protocol';
import { SamlAssertion } from '../domain/saml-identity';
import { SamlServiceEndpoints } from '../domain/saml-provider';

const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Tolerated difference between the IdP's clock and ours. */
const CLOCK_SKEW_MS = 60 * 1000;
/** An assertion is used within minutes of being issued, whatever its NotOnOrAfter says (narrows replays). */
const MAX_ASSERTION_AGE_MS = 10 * 60 * 1000;
/** node-saml's own messages that name the failure without echoing the document. */
const SAFE_MESSAGE = /^(Invalid|SAML assertion|SAML provider returned|Missing SAML|Unknown SAML|Cannot obtain assertion|Error parsing (NotBefore|NotOnOrAfter|IssueInstant))/;

/**
 * SAML through @node-saml/node-saml. Deliberate settings:
 * - either the Response or the Assertion must carry a valid signature by the provider's
 *   certificate (wantAuthnResponseSigned / wantAssertionsSigned off: node-saml then requires the
 *   assertion's own signature whenever the response is unsigned);
 * - the audience must be our per-provider entity id; time checks use real time with 60 s skew,
 *   and an assertion older than 10 minutes (IssueInstant) is refused;
 * - InResponseTo is not validated here: node-saml's check is a get-then-remove on its cache, not
 *   atomic across replicas. It is returned instead, and the sign-in use case consumes it (and
 *   the assertion id) atomically in PostgreSQL.
 */
@Injectable()
export class NodeSamlProtocol extends SamlProtocol {
  private saml(settings: SamlSettings, requestId?: string): SAML {
    const config: SamlConfig = {
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
      entryPoint: settings.idpSsoUrl,
      idpCert: settings.idpCertificate,
      issuer: settings.service.entityID,
      audience: settings.service.entityID,
      callbackUrl: settings.service.acsURL,
      identifierFormat: EMAIL_NAME_ID,
      disableRequestedAuthnContext: true,
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
      validateInResponseTo: ValidateInResponseTo.never,
    };
    return new SAML(config);
  }

  async authorizeUrl(settings: SamlSettings): Promise<{ url: string; requestId: string }> {
    // An XML ID must not start with a digit.
    const requestId = `_${randomBytes(20).toString('hex')}`;
    return { url: await this.saml(settings, requestId).getAuthorizeUrlAsync('', undefined, {}), requestId };
  }

  async verifyResponse(settings: SamlSettings, samlResponse: string): Promise<SamlAssertion> {
    let result: Awaited<ReturnType<SAML['validatePostResponseAsync']>>;
    try {
      result = await this.saml(settings).validatePostResponseAsync({ SAMLResponse: samlResponse });
    } catch (error) {
      throw new UnauthenticatedError(`The SAML response was refused: ${describe(error)}`);
    }
    const profile = result.profile;
    if (!profile || result.loggedOut) throw new UnauthenticatedError('The SAML response was refused: it carries no assertion');
    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    return {
      issuer: typeof profile.issuer === 'string' ? profile.issuer : null,
      nameId: typeof profile.nameID === 'string' ? profile.nameID : null,
      nameIdFormat: typeof profile.nameIDFormat === 'string' ? profile.nameIDFormat : null,
      attributes,
      recipients: confirmationData(profile.getAssertion?.(), 'Recipient'),
      assertionId: assertionIdOf(profile.getAssertion?.()),
      inResponseTo: typeof profile.inResponseTo === 'string' && profile.inResponseTo !== '' ? profile.inResponseTo : null,
      subjectInResponseTo: confirmationData(profile.getAssertion?.(), 'InResponseTo'),
    };
  }

  serviceMetadata(service: SamlServiceEndpoints): string {
    return generateServiceProviderMetadata({
      issuer: service.entityID,
      callbackUrl: service.acsURL,
      identifierFormat: EMAIL_NAME_ID,
      wantAssertionsSigned: false,
    });
  }
}

function describe(error: unknown): string {
  if (error instanceof SamlStatusError) return error.message;
  const message = error instanceof Error ? error.message : '';
  return SAFE_MESSAGE.test(message) ? message.slice(0, 300) : 'the document is malformed or incomplete';
}

/** An attribute (`Recipient`, `InResponseTo`) of every SubjectConfirmationData in the (already verified) assertion, as xml2js parsed it. */
function confirmationData(parsed: Record<string, unknown> | undefined, attribute: 'Recipient' | 'InResponseTo'): string[] {
  const list = (value: unknown): Record<string, any>[] => (Array.isArray(value) ? value : []);
  const assertion = parsed?.Assertion as Record<string, unknown> | undefined;
  const values: string[] = [];
  for (const subject of list(assertion?.Subject)) {
    for (const confirmation of list(subject.SubjectConfirmation)) {
      for (const data of list(confirmation.SubjectConfirmationData)) {
        const value = data?.$?.[attribute];
        if (typeof value === 'string') values.push(value);
      }
    }
  }
  return values;
}

function assertionIdOf(parsed: Record<string, unknown> | undefined): string | null {
  const id = (parsed?.Assertion as { $?: { ID?: unknown } } | undefined)?.$?.ID;
  return typeof id === 'string' && id !== '' ? id : null;
}
