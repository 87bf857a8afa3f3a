import { HandlesJob, JobContext, JobHandler } from '../../../jobs/job-handler';
import { ConversationAnalyser } from '../application/conversation-analyser.service';
import { AnalyseConversations, AnalyseConversationsPayload } from '../application/conversation.jobs';

/** Analyses what waits (idempotent: processed conversations are not analysed again). */
@HandlesJob(AnalyseConversations)
export class AnalyseConversationsHandler implements JobHandler<AnalyseConversationsPayload> {
  constructor(private readonly analyser: ConversationAnalyser) {}

  handle(payload: AnalyseConversationsPayload, context: JobContext): Promise<unknown> {
    return this.analyser.analyse(payload.organizationId, context.signal);
  }
}
