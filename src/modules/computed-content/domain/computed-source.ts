import { InvalidError } from '@app/common';

/** What one page of a computed OpenAPI revision holds (GitBook's document `props`). */
export type OpenAPIDocumentProps =
  | { doc: 'models' }
  | { doc: 'operations' | 'info' | 'tag'; page: string }
  | { doc: 'operation'; page: string; method: string; deprecated?: boolean };

export interface OpenAPIRevisionProps {
  models: boolean;
  grouping: 'by-tag' | 'by-operation';
  downloadLink?: boolean;
}

export interface OpenAPIRevisionSource {
  type: 'builtin:openapi';
  spec: string;
  props: OpenAPIRevisionProps;
}

export interface OpenAPIDocumentSource {
  type: 'builtin:openapi';
  spec: string;
  props: OpenAPIDocumentProps;
}

const DOCS = ['models', 'operations', 'info', 'tag', 'operation'];
const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace', 'hook'];
const GROUPINGS = ['by-tag', 'by-operation'];

type Json = Record<string, unknown>;

/**
 * The source of `getComputedRevision`, checked. Only `builtin:openapi` is computed here: this
 * server has no integrations, and its translations write their result space directly (read that
 * space's content instead of computing it).
 */
export function parseRevisionSource(source: unknown): OpenAPIRevisionSource {
  const { spec, props } = openapiSource(source);
  if ('doc' in props) throw new InvalidError('source.props.doc describes a document: compute it with POST /spaces/{spaceId}/content/computed/document');
  if (props.models !== undefined && typeof props.models !== 'boolean') throw new InvalidError('source.props.models must be a boolean');
  if (props.downloadLink !== undefined && typeof props.downloadLink !== 'boolean') throw new InvalidError('source.props.downloadLink must be a boolean');
  if (props.grouping !== undefined && !GROUPINGS.includes(props.grouping as string)) throw new InvalidError(`source.props.grouping must be one of ${GROUPINGS.join(', ')}`);
  return {
    type: 'builtin:openapi',
    spec,
    props: {
      models: props.models === true,
      grouping: (props.grouping as OpenAPIRevisionProps['grouping'] | undefined) ?? 'by-tag',
      ...(props.downloadLink !== undefined ? { downloadLink: props.downloadLink as boolean } : {}),
    },
  };
}

/** The source of `getComputedDocument`, checked (see parseRevisionSource for the types computed). */
export function parseDocumentSource(source: unknown): OpenAPIDocumentSource {
  const { spec, props } = openapiSource(source);
  const doc = props.doc;
  if (typeof doc !== 'string' || !DOCS.includes(doc)) throw new InvalidError(`source.props.doc must be one of ${DOCS.join(', ')}`);
  if (doc === 'models') return { type: 'builtin:openapi', spec, props: { doc } };
  if (typeof props.page !== 'string' || !props.page) throw new InvalidError(`source.props.page must be a non-empty string for doc "${doc}"`);
  if (doc !== 'operation') return { type: 'builtin:openapi', spec, props: { doc: doc as 'operations' | 'info' | 'tag', page: props.page } };
  if (typeof props.method !== 'string' || !METHODS.includes(props.method)) throw new InvalidError(`source.props.method must be one of ${METHODS.join(', ')}`);
  if (props.deprecated !== undefined && typeof props.deprecated !== 'boolean') throw new InvalidError('source.props.deprecated must be a boolean');
  return {
    type: 'builtin:openapi',
    spec,
    props: { doc, page: props.page, method: props.method, ...(props.deprecated !== undefined ? { deprecated: props.deprecated as boolean } : {}) },
  };
}

function openapiSource(source: unknown): { spec: string; props: Json } {
  if (!isObject(source)) throw new InvalidError('source must be an object');
  const type = source.type;
  if (typeof type !== 'string' || !type) throw new InvalidError('source.type is required');
  if (type === 'builtin:translation') {
    throw new InvalidError('builtin:translation sources are not computed by this server: a translation writes its result space, whose content the content API reads');
  }
  if (type.startsWith('integration:')) throw new InvalidError('integration sources are not computed by this server: it has no integrations');
  if (type !== 'builtin:openapi') throw new InvalidError(`source.type "${type}" is not a computed content type`);
  const dependencies = source.dependencies;
  const ref = isObject(dependencies) && isObject(dependencies.spec) ? dependencies.spec.ref : undefined;
  if (!isObject(ref) || ref.kind !== 'openapi' || typeof ref.spec !== 'string' || !ref.spec) {
    throw new InvalidError('source.dependencies.spec.ref must be {"kind": "openapi", "spec": "<slug>"}');
  }
  if (!isObject(source.props)) throw new InvalidError('source.props must be an object');
  return { spec: ref.spec, props: source.props };
}

function isObject(value: unknown): value is Json {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
