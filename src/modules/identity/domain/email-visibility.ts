/**
 * Whether a caller may see another user's e-mail address: their own always; someone else's
 * only when they share an organization in which the caller is a full (non-guest) member. A
 * guest sees who commented or edited, not how to reach them. The one rule for `GET /users/{id}`;
 * kept alone so it can be replaced by an organization-wide policy.
 */
export function emailVisible(viewerId: string, subjectId: string, sharedOrganizations: { viewerRole: string | null }[]): boolean {
  if (viewerId === subjectId) return true;
  return sharedOrganizations.some((shared) => shared.viewerRole !== null);
}
