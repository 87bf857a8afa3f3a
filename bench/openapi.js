'use strict';
// OpenAPI processing benchmark: a generated spec of about BENCH_OPENAPI_MB megabytes (default 5), as JSON and as
// YAML, through the worker's SpecParser (parse, bundle, validate in a worker thread), against the floor of parsing
// the same text alone, in one run. Prints the time and the process's peak RSS above its starting point.
// Usage: npm run build && npm run bench:openapi
const path = require('node:path');
const { ROOT } = require('./lib');

const TARGET_BYTES = Number(process.env.BENCH_OPENAPI_MB || 5) * 1024 * 1024;
const dist = (p) => require(path.join(ROOT, 'dist/src', p));

function generate() {
  const spec = { openapi: '3.0.3', info: { title: 'Generated cloud API', version: '1.0.0' }, paths: {}, components: { schemas: {} } };
  for (let i = 0; JSON.stringify(spec).length < TARGET_BYTES; i++) {
    const schema = `Resource${i}`;
    spec.components.schemas[schema] = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', format: 'uuid', description: `Identifier of resource ${i}` },
        name: { type: 'string', maxLength: 128 },
        tags: { type: 'array', items: { type: 'string' } },
        parent: { $ref: `#/components/schemas/Resource${Math.max(0, i - 1)}` },
        createdAt: { type: 'string', format: 'date-time' },
        settings: { type: 'object', additionalProperties: { type: 'string' }, description: 'Free-form settings of the resource, as key-value pairs.' },
      },
    };
    const ref = { $ref: `#/components/schemas/${schema}` };
    spec.paths[`/projects/{projectId}/resources-${i}`] = {
      parameters: [{ name: 'projectId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: `listResources${i}`,
        summary: `List resources of kind ${i}`,
        parameters: [{ name: 'pageToken', in: 'query', schema: { type: 'string' } }, { name: 'pageSize', in: 'query', schema: { type: 'integer', maximum: 1000 } }],
        responses: { 200: { description: 'A page', content: { 'application/json': { schema: { type: 'object', properties: { items: { type: 'array', items: ref }, next: { type: 'string' } } } } } } },
      },
      post: {
        operationId: `createResource${i}`,
        summary: `Create a resource of kind ${i}`,
        requestBody: { required: true, content: { 'application/json': { schema: ref } } },
        responses: { 201: { description: 'Created', content: { 'application/json': { schema: ref } } }, 400: { description: 'Invalid' } },
      },
    };
  }
  return spec;
}

async function measure(label, run) {
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const began = process.hrtime.bigint();
  const result = await run();
  const ms = Number(process.hrtime.bigint() - began) / 1e6;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { label, ms, rssMb: (peak - start) / 1024 / 1024, result };
}

async function main() {
  const { loadConfig } = dist('../libs/common/src/config/config.schema');
  const { GuardedFetcher } = dist('core/outbound/guarded-fetcher');
  const { SpecParser } = dist('modules/openapi/infrastructure/spec-parser');
  const YAML = require('yaml');
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: 'postgres://unused@127.0.0.1/unused' }), openapiMaxBytes: 64 * 1024 * 1024 };
  const parser = new SpecParser(new GuardedFetcher(config), config);
  const spec = generate();
  const json = JSON.stringify(spec, null, 1);
  const yaml = YAML.stringify(spec);
  console.log(`spec: ${Object.keys(spec.paths).length} paths, ${Object.keys(spec.paths).length * 2} operations; JSON ${(json.length / 1048576).toFixed(1)} MB, YAML ${(yaml.length / 1048576).toFixed(1)} MB`);

  const rows = [];
  rows.push(await measure('JSON: JSON.parse alone (floor)', async () => JSON.parse(json)));
  rows.push(await measure('JSON: processed (parse, bundle, validate)', () => parser.process({ text: json })));
  rows.push(await measure('YAML: yaml.parse alone (floor)', async () => YAML.parse(yaml)));
  rows.push(await measure('YAML: processed (parse, bundle, validate)', () => parser.process({ text: yaml })));
  for (const row of rows) console.log(`${row.label.padEnd(44)} ${row.ms.toFixed(0).padStart(7)} ms   peak RSS +${row.rssMb.toFixed(0)} MB`);
  const hashes = new Set(rows.filter((r) => r.result?.hash).map((r) => r.result.hash));
  console.log(`JSON and YAML give the same version: ${hashes.size === 1}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
