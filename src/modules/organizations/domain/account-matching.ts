import { ForbiddenError } from '@app/common';
import { domainOf } from './domain-join';

/** What decides whether an organization's identity provider may sign in an account that already exists. */
export interface ExistingAccountFacts {
  /** The organization's `emailDomains`. */
  emailDomains: string[];
  /** The account is a member of the organization (an invitation to an existing user is a membership). */
  isMember: boolean;
}

/**
 * An organization's identity provider speaks for that organization only. It may sign in an
 * existing account, matched by e-mail, only when the account is already a member of the
 * organization (which is how an admin links an account explicitly: invite it first), or when
 * the address is at one of the organization's `emailDomains`. Otherwise any organization could
 * configure an IdP that asserts the address of another organization's admin and obtain a token
 * for that account (403). New e-mails are not affected: SSO creates those users.
 */
export function assertMayMatchExistingAccount(email: string, facts: ExistingAccountFacts): void {
  if (facts.isMember) return;
  if (facts.emailDomains.includes(domainOf(email))) return;
  throw new ForbiddenError(
    "This identity provider cannot sign in an existing account that is not a member of its organization and whose e-mail domain is not one of the organization's e-mail domains; an organization admin can invite the account first",
  );
}
