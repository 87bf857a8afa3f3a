import { Injectable } from '@nestjs/common';
import { ConflictError, InvalidError, NotFoundError } from '@app/common';
import { GitSyncService } from '../../git-sync/application/git-sync.service';
import { IdentityService } from '../../identity/application/identity.service';
import { User } from '../../identity/domain/user';
import { OrganizationsService } from '../../organizations/application/organizations.service';
import { PublishedSitesService } from '../../sites/application/published-sites.service';
import { SitesService } from '../../sites/application/sites.service';
import { SpacesService } from '../../spaces/application/spaces.service';
import { commitDirectory } from '../infrastructure/directory-repository';

/** Every name docs:publish finds its things by, so a second run updates what the first made. */
export const DOCS_TITLE = 'Docs Platform';
const BASENAME = 'docs-platform';
const FIRST_PAGE = { limit: 100 };

export interface DocsPublished {
  owner: string;
  organization: string;
  space: string;
  site: string;
  /** Where readers open it. */
  url: string;
  import: Record<string, unknown>;
}

/**
 * Publishes a directory in GitBook's repository layout (our own `docs/`) as a site: an
 * organization, a space and a site, each titled "Docs Platform" and owned by an instance
 * administrator, made on the first run and found again on the next; the directory is imported
 * through Git Sync each time, so the site shows the docs as they are now.
 */
@Injectable()
export class DocsPublisher {
  constructor(
    private readonly identity: IdentityService,
    private readonly organizations: OrganizationsService,
    private readonly spaces: SpacesService,
    private readonly gitSync: GitSyncService,
    private readonly sites: SitesService,
    private readonly published: PublishedSitesService,
  ) {}

  async publish(input: { dir: string; email?: string }): Promise<DocsPublished> {
    const owner = await this.owner(input.email);
    const organizationId = await this.organization(owner);
    const spaceId = await this.space(owner, organizationId);
    const repository = await commitDirectory(input.dir);
    let imported: Record<string, unknown>;
    try {
      imported = await this.gitSync.importHere(owner, spaceId, { url: repository.url, ref: 'refs/heads/main' });
    } finally {
      repository.remove();
    }
    const site = await this.site(owner, organizationId, spaceId);
    return { owner: owner.email, organization: organizationId, space: spaceId, site: site.id, url: this.published.siteUrl(site), import: imported };
  }

  /** The user named, or else the first instance administrator: docs:publish is an operator's act. */
  private async owner(email?: string): Promise<User> {
    if (email) {
      const user = await this.identity.findByEmail(email);
      if (!user || user.disabledAt) throw new NotFoundError(`No active user with e-mail "${email}"`);
      return user;
    }
    const admins = (await this.identity.listUsers()).filter((user) => user.instanceAdmin && !user.disabledAt);
    if (admins.length === 0) throw new InvalidError('No instance administrator to own the docs: create one (users:create --instance-admin) or name a user with --email');
    return admins.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
  }

  private async organization(owner: User): Promise<string> {
    const mine = await this.organizations.listForCaller(owner, FIRST_PAGE);
    const found = mine.items.find((view) => view.organization.title === DOCS_TITLE && view.role === 'admin');
    return (found ?? (await this.organizations.create(owner, { title: DOCS_TITLE }))).organization.id;
  }

  private async space(owner: User, organizationId: string): Promise<string> {
    const spaces = await this.spaces.listInOrganization(owner, organizationId, FIRST_PAGE);
    const found = spaces.items.find((view) => view.space.title === DOCS_TITLE);
    return (found ?? (await this.spaces.create(owner, organizationId, { title: DOCS_TITLE }))).space.id;
  }

  private async site(owner: User, organizationId: string, spaceId: string) {
    const sites = await this.sites.list(owner, organizationId, { title: DOCS_TITLE }, FIRST_PAGE);
    let siteId = sites.items.find((view) => view.site.title === DOCS_TITLE)?.site.id;
    if (!siteId) {
      siteId = (await this.sites.create(owner, organizationId, { title: DOCS_TITLE, spaces: [spaceId] })).site.id;
      // A readable address when no other site took it (a 409); the site's id otherwise.
      await this.sites.update(owner, organizationId, siteId, { basename: BASENAME }).catch((error) => {
        if (!(error instanceof ConflictError)) throw error;
      });
    }
    return (await this.sites.setPublished(owner, organizationId, siteId, true)).site;
  }
}
