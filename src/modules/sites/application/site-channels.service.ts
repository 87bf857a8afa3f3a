import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, ConflictError, InvalidError, NotFoundError, Page, PageRequest, newId } from '@app/common';
import { User } from '../../identity/domain/user';
import { assertChannelRole, assertChannelSetup } from '../domain/site-channel';
import { SiteChannelOrm } from '../infrastructure/site-channel.orm';
import { SiteChannelsRepository } from '../infrastructure/site-channels.repository';
import { SiteAccess } from './site-access';

export interface ChannelInput {
  type?: unknown;
  setupSettings?: unknown;
  role?: unknown;
}

/**
 * A site's channels: chat workspaces and trackers (Slack, Discord, GitHub, Linear) where the
 * site's assistant may answer, each limited to the channels, teams or repositories its settings
 * name. Members who see the site read them; site admins manage them. One channel per kind and site.
 */
@Injectable()
export class SiteChannelsService {
  constructor(
    private readonly repository: SiteChannelsRepository,
    private readonly siteAccess: SiteAccess,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, request: PageRequest): Promise<Page<SiteChannelOrm>> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return this.repository.list(site.id, request);
  }

  async get(caller: User, organizationId: string, siteId: string, channelId: string): Promise<SiteChannelOrm> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId);
    return this.found(await this.repository.find(site.id, channelId), channelId);
  }

  async create(caller: User, organizationId: string, siteId: string, input: ChannelInput): Promise<SiteChannelOrm> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    const setup = assertChannelSetup(input.type, input.setupSettings);
    const channel = Object.assign(new SiteChannelOrm(), {
      id: newId(),
      siteId: site.id,
      type: setup.type,
      setupSettings: setup.setupSettings,
      role: input.role === undefined ? 'support' : assertChannelRole(input.role),
      createdAt: this.clock.now(),
    });
    // The unique index on (site, type) settles a race between two creations; this says it plainly first.
    if (await this.repository.hasType(site.id, setup.type)) throw this.taken(setup.type);
    await this.repository.insert(channel);
    return channel;
  }

  /** A new setup (its type and settings together) and/or a new role. */
  async update(caller: User, organizationId: string, siteId: string, channelId: string, input: ChannelInput): Promise<SiteChannelOrm> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    const channel = this.found(await this.repository.find(site.id, channelId), channelId);
    const patch: Partial<SiteChannelOrm> = {};
    if (input.type !== undefined || input.setupSettings !== undefined) {
      const setup = assertChannelSetup(input.type ?? channel.type, input.setupSettings ?? {});
      if (setup.type !== channel.type && (await this.repository.hasType(site.id, setup.type))) throw this.taken(setup.type);
      Object.assign(patch, setup);
    }
    if (input.role !== undefined) patch.role = assertChannelRole(input.role);
    if (!Object.keys(patch).length) throw new InvalidError('Give "type" and "setupSettings", or "role"');
    if (!(await this.repository.update(site.id, channel.id, patch))) throw NotFoundError.of('Site channel', channelId);
    return Object.assign(channel, patch);
  }

  async delete(caller: User, organizationId: string, siteId: string, channelId: string): Promise<boolean> {
    const { site } = await this.siteAccess.read(caller, organizationId, siteId, 'admin');
    return this.repository.delete(site.id, channelId);
  }

  private found(channel: SiteChannelOrm | null, id: string): SiteChannelOrm {
    if (!channel) throw NotFoundError.of('Site channel', id);
    return channel;
  }

  private taken(type: string): ConflictError {
    return new ConflictError(`The site already has a ${type} channel`);
  }
}
