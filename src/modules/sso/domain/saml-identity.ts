import { DomainError, UnauthenticatedError } from '@app/common';
import { normalizeEmail } from '../../identity/domain/user';

/**
 * What a verified SAML assertion says, in plain terms. The protocol adapter fills it only after
 * the signature, audience and validity window have been checked.
 */
export interface SamlAssertion {
  issuer: string | null;
  nameId: string | null;
  nameIdFormat: string | null;
  /** Attribute name -> value (a string, or an array when the attribute has several values). */
  attributes: Record<string, unknown>;
  /** `Recipient` of each SubjectConfirmationData that names one. */
  recipients: string[];
  /** The Assertion's `ID`: used once only. */
  assertionId: string | null;
  /** The Response's `InResponseTo` (absent for IdP-initiated sign-in). */
  inResponseTo: string | null;
  /** `InResponseTo` of each SubjectConfirmationData that names one. */
  subjectInResponseTo: string[];
}

/** The user an assertion signs in. */
export interface SamlIdentity {
  email: string;
  displayName: string;
}

const EMAIL_ATTRIBUTES = [
  'email',
  'Email',
  'mail',
  'emailAddress',
  'EmailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const DISPLAY_NAME_ATTRIBUTES = [
  'displayName',
  'DisplayName',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.microsoft.com/identity/claims/displayname',
  'name',
  'cn',
  'urn:oid:2.5.4.3',
];
const GIVEN_NAME_ATTRIBUTES = ['givenName', 'firstName', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
const SURNAME_ATTRIBUTES = ['sn', 'surname', 'lastName', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];
const EMAIL_NAME_ID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
];
const DISPLAY_NAME_MAX = 255;

function firstString(attributes: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const raw = attributes[name];
    const value = Array.isArray(raw) ? raw.find((v) => typeof v === 'string' && v.trim() !== '') : raw;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * The e-mail address an assertion is about: an e-mail attribute, else a NameID in the
 * emailAddress (or unspecified) format, else no sign-in (401). Lower-cased, as users are stored.
 */
export function assertionEmail(assertion: SamlAssertion): string {
  let candidate = firstString(assertion.attributes, EMAIL_ATTRIBUTES);
  if (!candidate && assertion.nameId && (!assertion.nameIdFormat || EMAIL_NAME_ID_FORMATS.includes(assertion.nameIdFormat))) {
    candidate = assertion.nameId.trim();
  }
  if (!candidate) throw new UnauthenticatedError('The SAML assertion carries no e-mail address (attribute "email" or an emailAddress NameID)');
  try {
    return normalizeEmail(candidate);
  } catch (error) {
    if (error instanceof DomainError) throw new UnauthenticatedError('The SAML assertion carries an invalid e-mail address');
    throw error;
  }
}

/** A display name: a display name attribute, else given name and surname, else the e-mail's local part. */
export function assertionDisplayName(assertion: SamlAssertion, email: string): string {
  const direct = firstString(assertion.attributes, DISPLAY_NAME_ATTRIBUTES);
  const composed = [firstString(assertion.attributes, GIVEN_NAME_ATTRIBUTES), firstString(assertion.attributes, SURNAME_ATTRIBUTES)]
    .filter(Boolean)
    .join(' ');
  const name = direct ?? (composed || email.slice(0, email.indexOf('@')));
  return name.slice(0, DISPLAY_NAME_MAX);
}

/**
 * Checks what the protocol library leaves to us, then names the user: the assertion must come
 * from the provider's IdP (its Issuer equals the configured entity id, when one is configured)
 * and be addressed to this provider's ACS (every Recipient it names is ours).
 */
export function identityFromAssertion(assertion: SamlAssertion, expected: { issuer: string; acsURL: string }): SamlIdentity {
  if (expected.issuer && assertion.issuer !== expected.issuer) {
    throw new UnauthenticatedError('The SAML assertion was issued by another identity provider than this provider\'s entityID');
  }
  if (assertion.recipients.some((recipient) => recipient !== expected.acsURL)) {
    throw new UnauthenticatedError('The SAML assertion is addressed to another service (SubjectConfirmationData Recipient)');
  }
  const email = assertionEmail(assertion);
  return { email, displayName: assertionDisplayName(assertion, email) };
}

/** The ids that make a sign-in one-time: the assertion's, and the AuthnRequest it answers (null: IdP-initiated). */
export interface SamlMessageIds {
  assertionId: string;
  inResponseTo: string | null;
}

/**
 * An assertion without an ID cannot be recorded as used, so it is refused. The request answered
 * is the Response's InResponseTo, else the one the subject confirmation names; when both name one
 * they must agree. No InResponseTo at all is an IdP-initiated sign-in, which is accepted: its
 * assertion is still used once only and within 10 minutes of issue.
 */
export function messageIdsOf(assertion: SamlAssertion): SamlMessageIds {
  if (!assertion.assertionId) throw new UnauthenticatedError('The SAML response was refused: the assertion has no ID');
  const answered = new Set([...(assertion.inResponseTo ? [assertion.inResponseTo] : []), ...assertion.subjectInResponseTo]);
  if (answered.size > 1) throw new UnauthenticatedError('The SAML response was refused: its InResponseTo values disagree');
  return { assertionId: assertion.assertionId, inResponseTo: [...answered][0] ?? null };
}
