'use strict';
// A space of N generated pages, committed and indexed through the app's own services (content and published-site benchmarks).
const { Client } = require('pg');

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

function body(i) {
  const w = (k) => WORDS[(i * 7 + k) % WORDS.length];
  return `# Page ${i}\n\nThis page explains ${w(0)} and ${w(1)} for team ${i}.\n\n## Details\n\nRunning ${w(2)} with ${w(3)} settings.\n\n- item one ${w(4)}\n- item two\n\n\`\`\`js\nconst page = ${i};\n\`\`\`\n`;
}

/** A space whose current revision holds `count` pages, committed and indexed through the app's own services. */
async function seedSpace(app, services, databaseUrl, { orgId, userId, title, count }) {
  const { ContentStore, SpacesService, ContentIndexer, newId, documentHash } = services;
  const spaceId = newId();
  const store = app.get(ContentStore);
  const spaces = app.get(SpacesService);
  const now = new Date().toISOString();
  const documents = new Map();
  const pages = [];
  for (let i = 0; i < count; i++) {
    const markdown = body(i).replace(/^# .*\n\n/, '');
    const hash = documentHash(markdown);
    documents.set(hash, markdown);
    pages.push({ id: `p${i}`, kind: 'document', title: `Page ${i}`, slug: `page-${i}`, documentHash: hash, createdAt: now, updatedAt: now, pages: [] });
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `INSERT INTO spaces (id, organization_id, title, revision_id, position, created_at, updated_at, language) VALUES ($1, $2, $3, 'pending', 0, now(), now(), 'en')`,
    [spaceId, orgId, title],
  );
  await client.end();
  const revision = await store.commit({ spaceId, parents: [], type: 'edits', content: { pages, files: [], variables: {}, reusableContents: [] }, documents, createdBy: userId });
  await spaces.advanceRevision(spaceId, 'pending', revision.id);
  await app.get(ContentIndexer).revisionBecameCurrent(spaceId, null, revision.id);
  return spaceId;
}

module.exports = { WORDS, body, seedSpace };
