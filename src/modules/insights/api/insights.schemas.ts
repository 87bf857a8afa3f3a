/** Answers of the insights operations GitBook has no equivalent of: served in /openapi.json and checked by the test harness. */
const RANGE_ITEMS = (item: object) => ({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: item } } });

export const SEARCHES_WITHOUT_RESULTS_SCHEMA = RANGE_ITEMS({
  type: 'object',
  required: ['query', 'searches', 'visitors'],
  properties: { query: { type: 'string' }, searches: { type: 'integer' }, visitors: { type: 'integer', description: 'Readers per UTC day, summed' } },
});

export const UNHELPFUL_PAGES_SCHEMA = RANGE_ITEMS({
  type: 'object',
  required: ['page', 'ratings'],
  properties: {
    page: { type: 'object', required: ['page', 'space'], properties: { page: { type: 'string' }, space: { type: 'string' } } },
    ratings: { type: 'integer', description: '`bad` ratings in the range' },
  },
});

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

export const INSIGHTS_CONTRACT = {
  paths: {
    '/orgs/{organizationId}/sites/{siteId}/insights/searches-without-results': { get: { responses: { 200: json(SEARCHES_WITHOUT_RESULTS_SCHEMA) } } },
    '/orgs/{organizationId}/sites/{siteId}/insights/unhelpful-pages': { get: { responses: { 200: json(UNHELPFUL_PAGES_SCHEMA) } } },
  },
  components: {},
};
