import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock, InvalidError } from '@app/common';
import { AI_USAGE_INTERVALS, AiUsage, AiUsageInterval, AiUsagePeriod } from '../../../core/ai/ai-usage';
import { AccessService } from '../../access/application/access.service';
import { User } from '../../identity/domain/user';

const DAY_MS = 86_400_000;

/** `getOrganizationAIUsage`: the model's use by the organization (organization admins). */
@Injectable()
export class AiUsageService {
  constructor(
    private readonly access: AccessService,
    private readonly usage: AiUsage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Credits per bucket over [from, to): `to` defaults to now (and is capped there), `from` to 30 days before it. */
  async report(caller: User, organizationId: string, query: { from?: string; to?: string; interval?: string }): Promise<{ from: string; to: string; periods: AiUsagePeriod[] }> {
    const interval = (query.interval ?? 'day') as AiUsageInterval;
    if (!(AI_USAGE_INTERVALS as readonly string[]).includes(interval)) throw new InvalidError(`interval: one of ${AI_USAGE_INTERVALS.join(', ')}`);
    const now = this.clock.now();
    const asked = query.to ? date('to', query.to) : now;
    const to = asked > now ? now : asked;
    const from = query.from ? date('from', query.from) : new Date(to.getTime() - 30 * DAY_MS);
    await this.access.requireOrgRole(caller, organizationId, 'admin');
    return { from: from.toISOString(), to: to.toISOString(), periods: await this.usage.periods(organizationId, from, to, interval) };
  }
}

function date(field: string, value: string): Date {
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw new InvalidError(`${field}: a date-time`);
  return parsed;
}
