import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, InvalidError, NotFoundError } from '@app/common';
import { ChangeRequestView, ChangeRequestsService } from '../../change-requests/application/change-requests.service';
import { CollectionView, CollectionsService } from '../../collections/application/collections.service';
import { ContentReader, PageObject } from '../../content/application/content-reader';
import { ContentReadsService } from '../../content-api/application/content-reads.service';
import { User } from '../../identity/domain/user';
import { PublishedSitesService } from '../../sites/application/published-sites.service';
import { SpaceView, SpacesService } from '../../spaces/application/spaces.service';
import { AppAddress, parseAppAddress } from '../domain/app-address';

/** What an address names: a collection, or a space with, when the address says so, a change request and a page. */
export type ContentAtUrl = { collection: CollectionView } | { space: SpaceView; changeRequest?: ChangeRequestView; page?: PageObject };

/** The longest address accepted; longer ones are refused before any parsing. */
export const MAX_URL_LENGTH = 4096;

/**
 * `GET /urls/content`: the content an address of this server names, for a member who may see it.
 * Two kinds of address: the app's (`urls.app` of collections, spaces, change requests and pages)
 * and a published site's (this server's `/sites/...` or a site's own host), read as the site's
 * structure maps it to a space and a page path. Anything the caller may not see, or that is not
 * there, is "not found", exactly like an address that names nothing.
 */
@Injectable()
export class ContentByUrlService {
  private readonly appBase: URL;

  constructor(
    private readonly collections: CollectionsService,
    private readonly spaces: SpacesService,
    private readonly changeRequests: ChangeRequestsService,
    private readonly reads: ContentReadsService,
    private readonly reader: ContentReader,
    private readonly published: PublishedSitesService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.appBase = new URL(`${config.publicUrl}/app`);
  }

  async resolve(caller: User, url: string): Promise<ContentAtUrl> {
    const parsed = parseUrl(url);
    const app = parseAppAddress(parsed, this.appBase);
    if (app) return this.appContent(caller, app);
    const address = await this.published.addressForMember(parsed);
    if (!address) throw nothingAt();
    return this.spaceContent(caller, { kind: 'space', spaceId: address.spaceId, pagePath: address.pagePath });
  }

  /** Whether an address is this server's own (app or published): such addresses are never fetched. */
  async isOwn(url: URL): Promise<boolean> {
    return url.origin === this.appBase.origin || (await this.published.locate(url)) !== null;
  }

  private async appContent(caller: User, address: AppAddress): Promise<ContentAtUrl> {
    if (address.kind === 'space') return this.spaceContent(caller, address);
    const collection = await this.visible(() => this.collections.get(caller, address.collectionId));
    if (address.organizationId && collection.collection.organizationId !== address.organizationId) throw nothingAt();
    return { collection };
  }

  private async spaceContent(caller: User, address: Extract<AppAddress, { kind: 'space' }>): Promise<ContentAtUrl> {
    const space = await this.visible(() => this.spaces.get(caller, address.spaceId));
    if (address.organizationId && space.space.organizationId !== address.organizationId) throw nothingAt();
    const changeRequest = address.changeRequest ? await this.visible(() => this.changeRequests.get(caller, space.space.id, address.changeRequest!)) : undefined;
    if (!address.pagePath) return { space, ...(changeRequest ? { changeRequest } : {}) };
    const { revision, scope } = changeRequest
      ? await this.reads.changeRequestContent(caller, space.space.id, changeRequest.changeRequest.id)
      : await this.reads.spaceContent(caller, space.space.id);
    const page = await this.visible(() => this.reader.pageByPath(revision, scope, address.pagePath, 'document'));
    return { space, ...(changeRequest ? { changeRequest } : {}), page };
  }

  /** One "not found" for every way an address can name nothing the caller sees. */
  private async visible<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof NotFoundError) throw nothingAt();
      throw error;
    }
  }
}

/** The address as an absolute http(s) URL, or a 400. */
export function parseUrl(url: string): URL {
  if (url.length > MAX_URL_LENGTH) throw new InvalidError(`url must be at most ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidError('url must be an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidError('url must be an http or https URL');
  return parsed;
}

function nothingAt(): NotFoundError {
  return new NotFoundError('No content found at this URL');
}
