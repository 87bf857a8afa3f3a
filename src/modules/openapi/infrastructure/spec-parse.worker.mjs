// Parses, bundles and validates one OpenAPI document in a worker thread, so a large spec costs the
// worker's event loop nothing and is bounded in memory (the thread's resourceLimits) and time (the
// parent terminates it). Plain ESM JavaScript: Swagger Parser's resolver is an ES module, and this
// file runs as is under the built server and under the tests. Files that `$ref`s name are not
// fetched here: the parent fetches them through the guarded fetcher (see spec-parser.ts).
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import SwaggerParser from '@apidevtools/swagger-parser';
// Swagger Parser's own validators, run on the bundle as it is (see validate below).
import validateSchema from '@apidevtools/swagger-parser/lib/validators/schema.js';
import validateSpec from '@apidevtools/swagger-parser/lib/validators/spec.js';
import { parseDocument } from 'yaml';

class Failure extends Error {
  constructor(code, errors) {
    super(errors[0]?.message ?? code);
    this.failure = { code, errors };
  }
}

let nextRequest = 0;
const pending = new Map();
parentPort.on('message', (message) => {
  const waiting = pending.get(message.id);
  if (!waiting) return;
  pending.delete(message.id);
  if (message.failure) waiting.reject(new Failure(message.failure.code, message.failure.errors));
  else waiting.resolve(message.text);
});

function fetchThroughParent(url) {
  const id = ++nextRequest;
  parentPort.postMessage({ type: 'fetch', id, url });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

function parseText(text) {
  const trimmed = text.trimStart();
  let value;
  let format;
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    format = 'json';
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Failure('PARSE_ERROR', [{ message: `invalid JSON: ${error.message}`, code: 'json' }]);
    }
  } else {
    format = 'yaml';
    const document = parseDocument(text, { uniqueKeys: false });
    if (document.errors.length > 0) {
      throw new Failure('PARSE_ERROR', document.errors.map((error) => ({ message: `invalid YAML: ${error.message.split('\n')[0]}`, code: 'yaml' })));
    }
    value = document.toJS({ maxAliasCount: 100 });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Failure('PARSE_ERROR', [{ message: 'the document is not an object' }]);
  if (value.openapi === undefined && value.swagger === undefined) {
    throw new Failure('PARSE_ERROR', [{ message: 'not an OpenAPI document: it has neither "openapi" nor "swagger"' }]);
  }
  return { value, format };
}

/** Swagger Parser's errors (validation details, resolver errors) as GitBook's error objects. */
function asFailure(error) {
  for (const candidate of [error, error?.cause, ...(Array.isArray(error?.errors) ? error.errors : [])]) {
    if (candidate?.failure) return candidate.failure;
  }
  const details = Array.isArray(error?.details) ? error.details : [];
  const errors = details.length
    ? details.map((detail) => ({ message: String(detail.message ?? 'invalid'), ...(detail.instancePath || detail.path ? { code: detail.instancePath || `/${detail.path.join('/')}` } : {}) }))
    : [{ message: String(error?.message ?? error).split('\n')[0].slice(0, 500) }];
  return { code: 'PARSE_ERROR', errors };
}

/**
 * Validates the bundle without dereferencing it. Swagger Parser's validate() first expands every
 * internal `$ref` and then walks the result as a tree: schemas that each refer twice to the next
 * turn 5 kB into 2^40 nodes. Here the schema validation reads the bundle with its references
 * (the OpenAPI schemas accept them wherever they may stand), and Swagger 2.0's spec checks read it
 * through a view that follows a reference only when they step on it, so each object is visited
 * once per path the checks take, and they take only shallow ones (parameters, responses).
 */
function validate(bundled) {
  validateSchema(bundled);
  validateSpec(followingRefs(bundled));
}

/** A read-only view of the document in which internal `$ref` objects read as their targets. */
function followingRefs(root) {
  const views = new WeakMap();
  const target = (value) => {
    let at = value;
    for (let hops = 0; at && typeof at === 'object' && typeof at.$ref === 'string' && at.$ref.startsWith('#') && hops < 64; hops++) at = pointer(root, at.$ref);
    return at;
  };
  const view = (value) => {
    const resolved = target(value);
    if (!resolved || typeof resolved !== 'object') return resolved;
    if (!views.has(resolved)) views.set(resolved, new Proxy(resolved, { get: (object, key) => view(Reflect.get(object, key)), set: () => false }));
    return views.get(resolved);
  };
  return view(root);
}

/** The value at a JSON pointer (`#/a/b~1c`), or undefined. */
function pointer(root, ref) {
  let at = root;
  for (const segment of ref.slice(1).split('/').slice(1)) {
    if (!at || typeof at !== 'object') return undefined;
    at = at[decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return at;
}

async function main() {
  const { text, base, maxFiles } = workerData;
  let files = 1;
  try {
    const { value, format } = parseText(text);
    const resolver = {
      order: 1,
      canRead: /^https?:\/\//i,
      read: async (file) => {
        if (++files > maxFiles) throw new Failure('PARSE_ERROR', [{ message: `the spec references more than ${maxFiles} files` }]);
        return fetchThroughParent(file.url);
      },
    };
    const bundled = await new SwaggerParser().bundle(base, value, { resolve: { file: false, http: false, guarded: resolver } });
    // A document that parses and bundles is kept: what breaks the rules is reported as warnings, not a refusal
    // (one bad security scheme must not take down a 400-operation reference).
    let warnings = [];
    try {
      validate(bundled);
    } catch (error) {
      if (error?.failure) throw error;
      warnings = asFailure(error).errors;
    }
    const serialized = JSON.stringify(bundled);
    parentPort.postMessage({ type: 'done', document: bundled, format, hash: createHash('sha256').update(serialized).digest('hex'), warnings });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', failure: asFailure(error) });
  }
}

main();
