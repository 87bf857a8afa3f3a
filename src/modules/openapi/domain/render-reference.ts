import { escapeHtml } from '@app/common';
import { descriptionHtml, inlineDescriptionHtml } from './description-html';
import type { ReferenceContent, ReferenceField, ReferenceModel, ReferenceOperation, ReferenceSchema } from './reference-model';


/** The operations of a reference as an HTML fragment (a section per operation), then its webhooks. */
export function renderOperations(model: ReferenceModel): string {
  return [...model.operations.map((op) => renderOperation(op)), ...(model.webhooks.length ? ['<h2 id="webhooks">Webhooks</h2>', ...model.webhooks.map(renderWebhook)] : [])].join('\n');
}

/** A 3.1 webhook: the request the API sends, named instead of addressed. */
export function renderWebhook(webhook: ReferenceOperation): string {
  return renderOperation(webhook, true);
}

/** A whole page: the reference of a public spec. No scripts; styles inline (the page's CSP allows only those). */
export function renderReferencePage(model: ReferenceModel, rawUrl: string): string {
  const title = escapeHtml(model.title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:24px;color:#1f2328}
h1{margin-bottom:4px}.op{border:1px solid #d0d7de;border-radius:8px;margin:16px 0;padding:12px 16px}
.m{font:bold 13px monospace;padding:2px 8px;border-radius:4px;color:#fff;background:#57606a;margin-right:8px}
.m-HOOK{background:#bc4c00}.m-GET{background:#0969da}.m-POST{background:#1a7f37}.m-PUT{background:#9a6700}.m-PATCH{background:#8250df}.m-DELETE{background:#cf222e}
code,pre{font-family:ui-monospace,monospace}pre{background:#f6f8fa;padding:8px;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
.dep{color:#cf222e}
</style></head>
<body><header><h1>${title}</h1>${model.version ? `<p>Version ${escapeHtml(model.version)}</p>` : ''}
${model.description ? descriptionHtml(model.description) : ''}<p><a href="${escapeHtml(rawUrl)}">Download the specification (JSON)</a></p></header>
<main>${renderOperations(model)}</main></body></html>`;
}

/**
 * One operation as an HTML section: method, path, summary, description (CommonMark), parameters,
 * request body (its fields) and responses. Text is escaped; descriptions go through the allowlist.
 */
export function renderOperation(op: ReferenceOperation, webhook = false): string {
  const rows = (items: ReferenceOperation['parameters']) =>
    items
      .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' *' : ''}</td><td>${escapeHtml(p.in)}</td><td><code>${escapeHtml(p.type)}</code></td><td>${inlineDescriptionHtml(p.description ?? '')}</td></tr>`)
      .join('');
  const contents = (list: ReferenceContent[]) =>
    list
      .map((c) => `<p><code>${escapeHtml(c.mediaType)}</code>: <code>${escapeHtml(c.type)}</code></p>${c.fields ? fieldsTable(c.fields) : ''}${c.example ? `<pre>${escapeHtml(c.example)}</pre>` : ''}`)
      .join('');
  const label = webhook ? `<span class="m m-HOOK">webhook</span><code>${escapeHtml(op.path)}</code> <small>${escapeHtml(op.method)}</small>` : `<span class="m m-${escapeHtml(op.method)}">${escapeHtml(op.method)}</span><code>${escapeHtml(op.path)}</code>`;
  return `<section class="op" id="${escapeHtml(`${webhook ? 'webhook-' : ''}${anchor(op)}`)}">
<h2>${label}${op.deprecated ? ' <span class="dep">deprecated</span>' : ''}</h2>
${op.summary ? `<p><strong>${escapeHtml(op.summary)}</strong></p>` : ''}${op.description ? descriptionHtml(op.description) : ''}
${op.parameters.length ? `<h3>Parameters</h3><table><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr>${rows(op.parameters)}</table>` : ''}
${op.requestBody ? `<h3>Request body${op.requestBody.required ? ' *' : ''}</h3>${contents(op.requestBody.contents)}` : ''}
${op.responses.length ? `<h3>Responses</h3>${op.responses.map((r) => `<h4>${escapeHtml(r.status)}${r.description ? ` ${inlineDescriptionHtml(r.description)}` : ''}</h4>${contents(r.contents)}`).join('')}` : ''}
</section>`;
}

/** An object's fields: name (* when required), type, description. */
function fieldsTable(fields: ReferenceField[]): string {
  const rows = fields
    .map((f) => `<tr><td><code>${escapeHtml(f.name)}</code>${f.required ? ' *' : ''}</td><td><code>${escapeHtml(f.type)}</code></td><td>${inlineDescriptionHtml(f.description ?? '')}</td></tr>`)
    .join('');
  return `<table><tr><th>Field</th><th>Type</th><th>Description</th></tr>${rows}</table>`;
}

/** The reusable schemas as HTML sections: each one's type, description and properties (everything escaped). */
export function renderSchemas(schemas: ReferenceSchema[]): string {
  return schemas
    .map((schema) => {
      return `<section class="op" id="schema-${escapeHtml(schema.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}">
<h2><code>${escapeHtml(schema.name)}</code> <small>${escapeHtml(schema.type)}</small></h2>
${schema.description ? descriptionHtml(schema.description) : ''}
${schema.properties.length ? fieldsTable(schema.properties) : ''}
</section>`;
    })
    .join('\n');
}

function anchor(op: ReferenceOperation): string {
  return `${op.method}-${op.path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
