import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { ClusterView, IssueView } from '../application/conversations.service';
import { ConversationIssueOrm } from '../infrastructure/conversation-issue.orm';
import { ConversationOrm } from '../infrastructure/conversation.orm';

/** GitBook's `Conversation`, `ConversationIssue` and `ConversationsIssuesCluster`. */
@Injectable()
export class ConversationPresenter {
  constructor(private readonly urls: Urls) {}

  presentConversation(c: ConversationOrm) {
    const url = (c.metadata as { url?: string } | null)?.url;
    return {
      object: 'conversation' as const,
      id: c.id,
      ...(c.subject ? { subject: c.subject } : {}),
      createdAt: c.createdAt.toISOString(),
      ...(c.processedAt ? { processedAt: c.processedAt.toISOString() } : {}),
      source: c.source,
      urls: { location: this.urls.api(`/orgs/${c.organizationId}/conversations/${c.id}`), ...(url ? { source: url } : {}) },
    };
  }

  /** GitBook's conversation read: the conversation, its parts and metadata. */
  presentConversationWithParts(c: ConversationOrm) {
    return { conversation: this.presentConversation(c), parts: c.parts, metadata: c.metadata ?? {} };
  }

  /** GitBook's issue read and list item: the issue and its conversation. */
  presentIssueView({ issue, conversation }: IssueView) {
    return { issue: this.presentIssue(issue), conversation: this.presentConversation(conversation) };
  }

  presentIssue(i: ConversationIssueOrm) {
    return {
      object: 'conversation-issue' as const,
      id: i.id,
      title: i.title,
      summary: i.summary,
      createdAt: i.createdAt.toISOString(),
      ingestedAt: i.ingestedAt.toISOString(),
      conversation: i.conversationId,
      ...(i.clusterId ? { cluster: i.clusterId } : {}),
      urls: { location: this.urls.api(`/orgs/${i.organizationId}/conversations-issues/${i.id}`) },
    };
  }

  presentCluster({ cluster: c, weeklyPulse, tasks }: ClusterView) {
    return {
      object: 'issues-cluster' as const,
      id: c.id,
      label: c.label,
      summary: c.summary,
      icon: c.icon,
      sources: c.sources,
      stats: {
        issues: c.issues,
        conversations: c.conversations,
        tasksTotal: tasks.total,
        tasksBacklog: tasks.backlog,
        tasksStarted: tasks.started,
        tasksCompleted: tasks.completed,
        tasksCancelled: tasks.cancelled,
      },
      weeklyPulse,
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
      urls: { location: this.urls.api(`/orgs/${c.organizationId}/conversations-clusters/${c.id}`), app: this.urls.app(`/o/${c.organizationId}/insights/${c.id}`) },
    };
  }
}
