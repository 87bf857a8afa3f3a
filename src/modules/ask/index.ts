/** What other modules may use of Ask: its use cases, and the AI response stream (GitBook's events). */
export { AskModule } from './ask.module';
export { AskService } from './application/ask.service';
export type { Answered } from './application/ask.service';
export { streamAiResponse } from './api/ai-response-stream';
export { messageText, questionOf, retrievalText } from './domain/ai-response';
export { keywords } from './domain/answer';
export type { Passage } from './domain/answer';
export { SiteQuestionsService } from './application/site-questions.service';
export { SiteQuestionPresenter } from './api/site-question.presenter';
export type { QuestionWithStats } from './application/site-questions.service';
export type { QuestionStats } from './application/site-questions.service';
