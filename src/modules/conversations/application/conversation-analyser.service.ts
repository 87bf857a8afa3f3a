import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock, newId } from '@app/common';
import { AiProvider, AiProviderError } from '../../../core/ai/ai-provider';
import { Transactions } from '../../../database/transactions';
import { ExtractedIssue, addToCentroid, bestCluster, extractIssues, labelOf, termVector } from '../domain/built-in-analysis';
import { ConversationIssueOrm } from '../infrastructure/conversation-issue.orm';
import { ConversationOrm } from '../infrastructure/conversation.orm';
import { ConversationsRepository } from '../infrastructure/conversations.repository';
import { IssuesClusterOrm } from '../infrastructure/issues-cluster.orm';

const BATCH = 500;

/**
 * The worker's analysis of an organization's conversations waiting for it, in batches: the
 * issues each reveals (the model extracts them when one is configured; otherwise, or when it
 * fails, the built-in method does), then each issue joins its most similar cluster or starts
 * one. A batch's issues, cluster changes and "processed" marks are one transaction, so a worker
 * killed mid-batch leaves the batch to be done again, never half done.
 */
@Injectable()
export class ConversationAnalyser {
  private readonly logger = new Logger(ConversationAnalyser.name);

  constructor(
    private readonly repository: ConversationsRepository,
    private readonly ai: AiProvider,
    private readonly transactions: Transactions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async analyse(organizationId: string, signal?: AbortSignal): Promise<{ conversations: number; issues: number }> {
    let conversations = 0;
    let issues = 0;
    for (;;) {
      const batch = await this.repository.unprocessedBatch(organizationId, BATCH);
      if (batch.length === 0) return { conversations, issues };
      const extracted = new Map<string, ExtractedIssue[]>();
      for (const conversation of batch) extracted.set(conversation.id, await this.extract(conversation, signal));
      issues += await this.cluster(organizationId, batch, extracted);
      conversations += batch.length;
    }
  }

  private async extract(conversation: ConversationOrm, signal?: AbortSignal): Promise<ExtractedIssue[]> {
    if (!this.ai.configured) return extractIssues(conversation.parts);
    try {
      const transcript = conversation.parts.map((part) => `${part.role}: ${part.body}`).join('\n\n').slice(0, 20_000);
      const answer = await this.ai.complete({
        json: true,
        signal,
        usage: { organizationId: conversation.organizationId, feature: 'conversation-analysis' },
        background: true,
        messages: [
          {
            role: 'system',
            content:
              'You read support conversations and list the documentation issues they reveal: what the user could not find or understand. ' +
              'Answer with a JSON object {"issues": [{"title": "...", "summary": "..."}]}: at most 5 issues, titles under 120 characters, summaries under 500. ' +
              'An empty list when the conversation reveals none.',
          },
          { role: 'user', content: `${conversation.subject ? `Subject: ${conversation.subject}\n\n` : ''}${transcript}` },
        ],
      });
      const parsed = JSON.parse(answer) as { issues?: Array<{ title?: unknown; summary?: unknown }> };
      return (parsed.issues ?? [])
        .filter((issue) => typeof issue.title === 'string' && issue.title.trim())
        .slice(0, 5)
        .map((issue) => ({ title: String(issue.title).trim().slice(0, 120), summary: String(issue.summary ?? '').trim().slice(0, 500) }));
    } catch (error) {
      if (!(error instanceof AiProviderError) && !(error instanceof SyntaxError)) throw error;
      this.logger.warn(`conversation ${conversation.id}: the model failed (${error.message}); the built-in method is used`);
      return extractIssues(conversation.parts);
    }
  }

  private async cluster(organizationId: string, batch: ConversationOrm[], extracted: Map<string, ExtractedIssue[]>): Promise<number> {
    const now = this.clock.now();
    return this.transactions.run(async (tx) => {
      const clusters = await this.repository.clustersOf(organizationId, tx);
      const touched = new Set(await this.repository.dropIssues(batch.map((c) => c.id), tx));
      const changed = new Map<string, IssuesClusterOrm>();
      const rows: ConversationIssueOrm[] = [];
      for (const conversation of batch) {
        for (const issue of extracted.get(conversation.id) ?? []) {
          const vector = termVector(`${issue.title} ${issue.title} ${issue.summary}`);
          let clusterId = bestCluster(vector, clusters);
          if (!clusterId) {
            const cluster = Object.assign(new IssuesClusterOrm(), {
              id: newId(),
              organizationId,
              label: '',
              summary: '',
              icon: 'circle-question',
              centroid: {},
              sources: {},
              issues: 0,
              conversations: 0,
              createdAt: now,
              updatedAt: now,
            });
            clusters.push(cluster);
            clusterId = cluster.id;
          }
          const cluster = clusters.find((c) => c.id === clusterId)!;
          cluster.centroid = addToCentroid(cluster.centroid, vector);
          cluster.label = labelOf(cluster.centroid);
          if (!cluster.summary) cluster.summary = `Users ask about this, for example: "${issue.title}"`.slice(0, 1000);
          changed.set(cluster.id, cluster);
          touched.add(cluster.id);
          rows.push(
            Object.assign(new ConversationIssueOrm(), {
              id: newId(),
              organizationId,
              conversationId: conversation.id,
              source: conversation.source,
              title: issue.title,
              summary: issue.summary,
              clusterId: cluster.id,
              createdAt: conversation.createdAt,
              ingestedAt: conversation.ingestedAt,
            }),
          );
        }
      }
      await this.repository.saveClusters([...changed.values()], tx);
      await this.repository.insertIssues(rows, tx);
      await this.repository.recount([...touched], now, tx);
      await this.repository.markProcessed(batch, now, tx);
      return rows.length;
    });
  }
}
