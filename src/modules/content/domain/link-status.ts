/** What a link's target is: found, missing, or an address in the app (left as written). */
export type LinkStatus = 'ok' | 'broken' | 'in-app';
export const LINK_STATUSES: readonly LinkStatus[] = ['ok', 'broken', 'in-app'];
