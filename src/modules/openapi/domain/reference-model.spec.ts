import { referenceModel } from './reference-model';
import { renderOperation, renderOperations } from './render-reference';

describe('referenceModel', () => {
  it("reads the declared tags and the reusable schemas with their properties, following local references", () => {
    const model = referenceModel({
      openapi: '3.0.3',
      info: { title: 'Pets' },
      tags: [{ name: 'Pets', description: 'All about pets' }, { name: 'Stores' }, { description: 'no name' }],
      paths: {},
      components: {
        schemas: {
          Pet: { type: 'object', description: 'A pet', required: ['name'], properties: { name: { type: 'string' }, owner: { $ref: '#/components/schemas/Owner' }, tags: { type: 'array', items: { type: 'string' } } } },
          Owner: { $ref: '#/components/schemas/Person' },
          Person: { type: 'object', properties: { id: { type: 'string', format: 'uuid', description: 'Who' } } },
        },
      },
    });
    expect(model.tags).toEqual([{ name: 'Pets', description: 'All about pets' }, { name: 'Stores' }]);
    expect(model.schemas).toEqual([
      {
        name: 'Pet',
        type: 'object',
        description: 'A pet',
        properties: [
          { name: 'name', type: 'string', required: true },
          { name: 'owner', type: 'Owner', required: false },
          { name: 'tags', type: 'array of string', required: false },
        ],
      },
      { name: 'Owner', type: 'object', properties: [{ name: 'id', type: 'string (uuid)', required: false, description: 'Who' }] },
      { name: 'Person', type: 'object', properties: [{ name: 'id', type: 'string (uuid)', required: false, description: 'Who' }] },
    ]);
  });

  it("reads Swagger 2.0's definitions as schemas", () => {
    const model = referenceModel({ swagger: '2.0', info: { title: 'Old' }, paths: {}, definitions: { Error: { type: 'object', properties: { code: { type: 'integer' } } } } });
    expect(model.schemas.map((s) => [s.name, s.properties.map((p) => p.type)])).toEqual([['Error', ['integer']]]);
  });
});

describe('API reference pages show everything (issue 32, section 3)', () => {
  // Shaped like what was found in real specs: Stripe's form bodies and HTML descriptions, Twilio's example order,
  // a 3.1 webhook (OAI's examples), a schema bundled from another file (named by where it was first used).
  const document = {
    openapi: '3.1.0',
    info: { title: 'Payments', description: '<p>Accept <b>payments</b>.</p>' },
    paths: {
      '/v1/charges': {
        post: {
          operationId: 'PostCharges',
          description: '<p>Use the <a href="javascript:alert(1)">Payment Intents API</a> to <a href="https://stripe.com/docs">charge</a>.</p>',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  allOf: [
                    { type: 'object', required: ['amount'], properties: { amount: { type: 'integer', description: 'In the **smallest** unit' } } },
                    { type: 'object', properties: { currency: { type: 'string' }, metadata: { $ref: '#/paths/~1v1~1customers/get/responses/200/content/application~1json/schema' } } },
                  ],
                },
                example: { To: '+15558675310', From: '+15017122661', Body: 'Hi' },
              },
            },
          },
          responses: { '200': { description: 'A `Charge`', content: { 'application/json': { schema: { $ref: '#/paths/~1v1~1customers/get/responses/200/content/application~1json/schema' } } } } },
        },
      },
      '/v1/customers': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { title: 'Customer', type: 'object', properties: { id: { type: 'string' } } } } } } } } },
    },
    webhooks: { newPet: { post: { summary: 'A pet was added', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } }, responses: { '200': { description: 'Received' } } } } },
  };
  const model = referenceModel(document);
  const charges = model.operations.find((op) => op.id === 'PostCharges')!;

  it('lists the fields of request bodies, parts of allOf merged', () => {
    expect(charges.requestBody!.contents[0].fields).toEqual([
      { name: 'amount', type: 'integer', required: true, description: 'In the **smallest** unit' },
      { name: 'currency', type: 'string', required: false },
      { name: 'metadata', type: 'Customer', required: false },
    ]);
  });

  it('names a schema bundled from another file by its title, not "schema"', () => {
    expect(charges.responses[0].contents[0].type).toBe('Customer');
  });

  it('keeps example keys in the order the spec wrote them', () => {
    expect(Object.keys(JSON.parse(charges.requestBody!.contents[0].example!))).toEqual(['To', 'From', 'Body']);
  });

  it('reads OpenAPI 3.1 webhooks', () => {
    expect(model.webhooks).toEqual([expect.objectContaining({ method: 'POST', path: 'newPet', summary: 'A pet was added' })]);
    expect(renderOperations(model)).toContain('<h2 id="webhooks">Webhooks</h2>');
    expect(renderOperations(model)).toContain('newPet');
  });

  it('renders descriptions as CommonMark (HTML allowed through the allowlist, unsafe links dropped)', () => {
    const html = renderOperation(charges);
    expect(html).toContain('<p>Use the <a>Payment Intents API</a> to <a href="https://stripe.com/docs">charge</a>.</p>');
    expect(html).not.toContain('&lt;p&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('In the <strong>smallest</strong> unit');
    expect(html).toContain('200 A <code>Charge</code>');
    const hostile = renderOperation({ ...charges, description: '<script>alert(1)</script><img src=x onerror="alert(2)"><a href="//evil.test">x</a> ok' });
    expect(hostile).not.toMatch(/<script|onerror|<img|evil\.test/);
    expect(hostile).toContain('ok');
  });
});
