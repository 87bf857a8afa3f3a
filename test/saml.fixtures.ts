import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import * as forge from 'node-forge';
import { SignedXml } from 'xml-crypto';

/**
 * A throwaway SAML identity provider for tests: its own RSA key pair and self-signed X.509
 * certificate, and SAMLResponses signed the way real IdPs sign them (RSA-SHA256, exclusive
 * c14n, enveloped signature on the Assertion and/or the Response).
 */
export class TestIdp {
  private constructor(
    readonly entityId: string,
    readonly privateKeyPem: string,
    readonly certificatePem: string,
  ) {}

  static create(entityId = 'https://idp.example.test/saml/metadata', commonName = 'idp.example.test'): TestIdp {
    const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = '01' + randomBytes(8).toString('hex');
    cert.validity.notBefore = new Date(Date.now() - 24 * 3600 * 1000);
    cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    const attrs = [{ name: 'commonName', value: commonName }];
    cert.setSubject(attrs);
    cert.setIssuer(attrs);
    cert.sign(keys.privateKey, forge.md.sha256.create());
    return new TestIdp(entityId, forge.pki.privateKeyToPem(keys.privateKey), forge.pki.certificateToPem(cert));
  }

  /** The certificate's base64 body, as IdP metadata shows it. */
  get certificateBody(): string {
    return this.certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  }

  /** A base64 SAMLResponse for `email`, signed as `sign` says. */
  response(options: ResponseOptions): string {
    return Buffer.from(this.responseXml(options), 'utf8').toString('base64');
  }

  responseXml(options: ResponseOptions): string {
    const xml = unsignedResponse({ issuer: this.entityId, ...options });
    const sign = options.sign ?? 'assertion';
    let signed = xml;
    if (sign === 'assertion' || sign === 'both') signed = this.signElement(signed, 'Assertion');
    if (sign === 'response' || sign === 'both') signed = this.signElement(signed, 'Response');
    return signed;
  }

  private signElement(xml: string, element: 'Assertion' | 'Response'): string {
    const signer = new SignedXml({ privateKey: this.privateKeyPem, publicCert: this.certificatePem });
    const path = element === 'Response' ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
    signer.addReference({
      xpath: path,
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    });
    signer.canonicalizationAlgorithm = 'http://www.w3.org/2001/10/xml-exc-c14n#';
    signer.signatureAlgorithm = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
    signer.computeSignature(xml, { location: { reference: `${path}/*[local-name(.)='Issuer']`, action: 'after' } });
    return signer.getSignedXml();
  }
}

export interface ResponseOptions {
  email: string;
  /** Our ACS URL (Destination and Recipient). */
  acsURL: string;
  /** Our entity id (the Audience). */
  audience: string;
  issuer?: string;
  displayName?: string;
  /** Defaults to 5 minutes from now (real time: node-saml checks against the system clock). */
  notOnOrAfter?: Date;
  issueInstant?: Date;
  sign?: 'assertion' | 'response' | 'both' | 'none';
  /** Put the e-mail only in the NameID (no attributes). */
  nameIdOnly?: boolean;
  /** The AuthnRequest answered (SP-initiated sign-in), on the Response and the SubjectConfirmationData. */
  inResponseTo?: string;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unsignedResponse(o: ResponseOptions & { issuer: string }): string {
  const now = o.issueInstant ?? new Date();
  const notBefore = new Date(now.getTime() - 60 * 1000).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60 * 1000)).toISOString();
  const id = (prefix: string) => `_${prefix}${randomBytes(16).toString('hex')}`;
  const email = escapeXml(o.email);
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${escapeXml(o.inResponseTo)}"` : '';
  const attributes = o.nameIdOnly
    ? ''
    : `<saml:AttributeStatement>` +
      `<saml:Attribute Name="email" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>` +
      (o.displayName
        ? `<saml:Attribute Name="displayName" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue>${escapeXml(o.displayName)}</saml:AttributeValue></saml:Attribute>`
        : '') +
      `</saml:AttributeStatement>`;
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
    `ID="${id('r')}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${escapeXml(o.acsURL)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id('a')}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<saml:Subject>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(o.acsURL)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation>` +
    `</saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id('s')}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    attributes +
    `</saml:Assertion>` +
    `</samlp:Response>`
  );
}

/** The AuthnRequest XML carried by an HTTP-Redirect binding URL (base64 of raw DEFLATE), and its ID. */
export function authnRequestFrom(location: string): { url: URL; xml: string; id: string } {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /<samlp:AuthnRequest[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in ${xml}`);
  return { url, xml, id };
}
