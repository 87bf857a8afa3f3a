import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, CLOCK, Clock, InvalidError, TooManyRequestsError } from '@app/common';

/** What a model call was for, as the usage report groups it. */
export type AiFeature = 'ask' | 'recommended-questions' | 'translation' | 'conversation-analysis' | 'styleguide' | 'findings' | 'agent';

/** Who a model call is counted against. */
export interface AiUsageOwner {
  organizationId: string;
  feature: AiFeature;
}

export const AI_USAGE_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type AiUsageInterval = (typeof AI_USAGE_INTERVALS)[number];

export interface AiUsagePeriod {
  date: string;
  credits: number;
  features: Array<{ feature: string; credits: number; creditsPercent: number }>;
}

/** One credit per call and one per started thousand tokens: what a call costs in the usage report. */
export function creditsOf(tokens: number): number {
  return 1 + Math.ceil(Math.max(0, tokens) / 1000);
}

const DAY_MS = 86_400_000;

/**
 * The model's use per organization, day and feature (calls, tokens, credits), kept by the provider
 * port for every call it makes on an organization's behalf, and the daily budgets
 * (AI_BUDGET_REQUESTS_PER_DAY, AI_BUDGET_TOKENS_PER_DAY) checked before each call. Calls in flight
 * together may pass a budget by their own use: the check is not a reservation.
 */
@Injectable()
export class AiUsage {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Refuses (429, until the next UTC midnight) an organization whose budget for today is spent. */
  async assertBudget(organizationId: string): Promise<void> {
    const now = this.clock.now();
    const { requestsPerDay, tokensPerDay } = this.config.aiBudget;
    if (!requestsPerDay && !tokensPerDay) return;
    const [row] = await this.dataSource.query(
      `SELECT coalesce(sum(requests), 0)::int AS requests, coalesce(sum(tokens), 0)::bigint AS tokens FROM ai_usage WHERE organization_id = $1 AND day = $2::date`,
      [organizationId, now.toISOString().slice(0, 10)],
    );
    const spent = (requestsPerDay && Number(row.requests) >= requestsPerDay) || (tokensPerDay && Number(row.tokens) >= tokensPerDay);
    if (!spent) return;
    const error = new TooManyRequestsError("The organization's model budget for today is spent (AI_BUDGET_REQUESTS_PER_DAY, AI_BUDGET_TOKENS_PER_DAY); it refills at midnight UTC");
    error.retryAfterSeconds = Math.max(1, Math.ceil((Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS - now.getTime()) / 1000));
    throw error;
  }

  /** Counts one call: its tokens, and the credits they make. */
  async record(owner: AiUsageOwner, tokens: number): Promise<void> {
    const now = this.clock.now();
    await this.dataSource.query(
      `INSERT INTO ai_usage (organization_id, day, feature, requests, tokens, credits) VALUES ($1, $2::date, $3, 1, $4, $5)
       ON CONFLICT (organization_id, day, feature) DO UPDATE SET requests = ai_usage.requests + 1, tokens = ai_usage.tokens + EXCLUDED.tokens, credits = ai_usage.credits + EXCLUDED.credits`,
      [owner.organizationId, now.toISOString().slice(0, 10), owner.feature, Math.max(0, Math.round(tokens)), creditsOf(tokens)],
    );
  }

  /**
   * Credits per calendar bucket (UTC; weeks from Monday) in [from, to), every bucket of the range
   * present, empty ones too; each with its features' credits and share.
   */
  async periods(organizationId: string, from: Date, to: Date, interval: AiUsageInterval): Promise<AiUsagePeriod[]> {
    if (!(from < to)) throw new InvalidError('from: before to');
    if ((to.getTime() - from.getTime()) / DAY_MS / { day: 1, week: 7, month: 28, year: 365 }[interval] > 400) throw new InvalidError('The range holds more than 400 periods: choose a longer interval');
    const rows: Array<{ bucket: string; feature: string; credits: string }> = await this.dataSource.query(
      `SELECT to_char(date_trunc($4, day::timestamp), 'YYYY-MM-DD') AS bucket, feature, sum(credits)::bigint AS credits
       FROM ai_usage WHERE organization_id = $1 AND day >= $2::date AND day < $3::date GROUP BY 1, 2 ORDER BY 1, 2`,
      [organizationId, from.toISOString().slice(0, 10), new Date(Math.ceil(to.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10), interval],
    );
    const byBucket = new Map<string, Array<{ feature: string; credits: number }>>();
    for (const row of rows) byBucket.set(row.bucket, [...(byBucket.get(row.bucket) ?? []), { feature: row.feature, credits: Number(row.credits) }]);
    return bucketsOf(from, to, interval).map((date) => {
      const features = byBucket.get(date) ?? [];
      const credits = features.reduce((sum, f) => sum + f.credits, 0);
      return { date, credits, features: features.map((f) => ({ ...f, creditsPercent: credits ? Math.round((f.credits / credits) * 10000) / 100 : 0 })) };
    });
  }
}

/** The start dates (YYYY-MM-DD, UTC) of the calendar buckets that [from, to) touches. */
export function bucketsOf(from: Date, to: Date, interval: AiUsageInterval): string[] {
  const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  if (interval === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  if (interval === 'month' || interval === 'year') start.setUTCDate(1);
  if (interval === 'year') start.setUTCMonth(0);
  const dates: string[] = [];
  for (const d = start; d < to; ) {
    dates.push(d.toISOString().slice(0, 10));
    if (interval === 'day') d.setUTCDate(d.getUTCDate() + 1);
    else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7);
    else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
    else d.setUTCFullYear(d.getUTCFullYear() + 1);
  }
  return dates;
}
