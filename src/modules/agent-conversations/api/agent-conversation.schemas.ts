/** Answers of the conversation operations GitBook has no equivalent of: served in /openapi.json and checked by the test harness. */
export const CONVERSATION_WITH_MESSAGES_SCHEMA = {
  type: 'object',
  required: ['object', 'id', 'shared', 'createdAt', 'updatedAt', 'messages'],
  properties: {
    object: { type: 'string', enum: ['agent-conversation'] },
    id: { type: 'string' },
    title: { type: 'string' },
    shared: { type: 'boolean' },
    changeRequest: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    messages: {
      type: 'array',
      description: "The conversation's AI messages, oldest first (GitBook's AIMessage)",
      items: {
        type: 'object',
        required: ['id', 'role', 'steps'],
        properties: { id: { type: 'string' }, role: { type: 'string', enum: ['user', 'assistant'] }, steps: { type: 'array', items: { type: 'object' } }, response: { type: 'object' }, createdAt: { type: 'string', format: 'date-time' } },
      },
    },
  },
};

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

export const AGENT_CONVERSATIONS_CONTRACT = {
  paths: {
    '/orgs/{organizationId}/agent/conversations/{conversationId}': { get: { responses: { 200: json(CONVERSATION_WITH_MESSAGES_SCHEMA) } } },
    '/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}': { get: { responses: { 200: json(CONVERSATION_WITH_MESSAGES_SCHEMA) } } },
  },
  components: {},
};
