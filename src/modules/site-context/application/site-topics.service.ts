import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError, NotFoundError } from '@app/common';
import { QuestionStats, SiteQuestionsService } from '../../ask';
import { User } from '../../identity/domain/user';
import { SiteAccess } from '../../sites/application/site-access';
import { SiteTopicOrm } from '../infrastructure/findings.orm';
import { FindingsRepository } from '../infrastructure/findings.repository';

export interface TopicView {
  topic: SiteTopicOrm;
  findings: { open: number; total: number };
  questions: QuestionStats;
}

/** A site's topics (made by scans): read by those who see the site, their settings changed by its editors. */
@Injectable()
export class SiteTopicsService {
  constructor(
    private readonly findings: FindingsRepository,
    private readonly questions: SiteQuestionsService,
    private readonly access: SiteAccess,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(caller: User, organizationId: string, siteId: string, from?: Date, to?: Date): Promise<TopicView[]> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    return this.views(site.id, await this.findings.listTopics(site.id, from, to));
  }

  async get(caller: User, organizationId: string, siteId: string, id: string): Promise<TopicView> {
    const { site } = await this.access.read(caller, organizationId, siteId);
    const topic = await this.findings.findTopic(site.id, id);
    if (!topic) throw NotFoundError.of('Site topic', id);
    return (await this.views(site.id, [topic]))[0];
  }

  async update(caller: User, organizationId: string, siteId: string, id: string, usageSettings: unknown): Promise<TopicView> {
    const changeRequests = typeof usageSettings === 'object' && usageSettings !== null ? (usageSettings as { changeRequests?: unknown }).changeRequests : undefined;
    if (typeof changeRequests !== 'boolean') throw new InvalidError('usageSettings.changeRequests: a boolean');
    const { site } = await this.access.read(caller, organizationId, siteId, 'edit');
    const topic = await this.findings.findTopic(site.id, id);
    if (!topic) throw NotFoundError.of('Site topic', id);
    Object.assign(topic, { useForChangeRequests: changeRequests, updatedAt: this.clock.now() });
    await this.findings.saveTopic(topic);
    return (await this.views(site.id, [topic]))[0];
  }

  /** `deleteSiteTopicFindings`: false when the topic had none (404 when the site has no such topic). */
  async deleteFindings(caller: User, organizationId: string, siteId: string, id: string): Promise<boolean> {
    const { site } = await this.access.read(caller, organizationId, siteId, 'edit');
    if (!(await this.findings.findTopic(site.id, id))) throw NotFoundError.of('Site topic', id);
    return this.findings.deleteTopicFindings(site.id, id);
  }

  private async views(siteId: string, topics: SiteTopicOrm[]): Promise<TopicView[]> {
    const counts = await this.findings.topicFindingCounts(siteId, topics.map((t) => t.id));
    const stats = await this.questions.statsByTopic(siteId, topics.map((t) => t.id));
    return topics.map((topic) => ({ topic, findings: counts.get(topic.id) ?? { open: 0, total: 0 }, questions: stats.get(topic.id)! }));
  }
}
