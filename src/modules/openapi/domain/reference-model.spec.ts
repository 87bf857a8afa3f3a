import { referenceModel } from './reference-model';

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
