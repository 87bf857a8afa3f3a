import { User } from '../../identity/domain/user';

/**
 * Which of its organization's specs a published site's reader (a site token) may read: those the
 * content of its site shows it (operation, schemas and webhook blocks, computed reference pages).
 * Provided by the published sites' side, which knows the site's spaces; without it, none.
 */
export abstract class SiteReaderSpecs {
  abstract usedBy(reader: User): Promise<ReadonlySet<string>>;
}
