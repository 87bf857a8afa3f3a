'use strict';
// A space of N generated pages, committed and indexed through the app's own services (content and published-site benchmarks).
const { Client } = require('pg');

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

// BENCH_LINKS=1: every page also links to two other pages and one external address, as real docs do.
const LINKS = process.env.BENCH_LINKS === '1';

function body(i) {
  const w = (k) => WORDS[(i * 7 + k) % WORDS.length];
  const links = LINKS ? `See [the next page](/pages/p${i + 1}), [the first](/pages/p0) and [the reference](https://example.com/ref/${i}).\n\n` : '';
  return `# Page ${i}\n\nThis page explains ${w(0)} and ${w(1)} for team ${i}.\n\n${links}## Details\n\nRunning ${w(2)} with ${w(3)} settings.\n\n- item one ${w(4)}\n- item two\n\n\`\`\`js\nconst page = ${i};\n\`\`\`\n`;
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

/**
 * The built app as an application context (migrations run at start, as in production), with a user,
 * their token and an organization, for a benchmark to seed through the app's own services.
 */
async function seedContext(root) {
  const path = require('node:path');
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(path.join(root, 'dist/src/app.module'));
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
  const services = {
    ContentStore: require(path.join(root, 'dist/src/modules/content/application/content-store.service')).ContentStore,
    SpacesService: require(path.join(root, 'dist/src/modules/spaces/application/spaces.service')).SpacesService,
    ContentIndexer: require(path.join(root, 'dist/src/modules/search/application/content-indexer.service')).ContentIndexer,
    newId: require(path.join(root, 'dist/libs/common/src')).newId,
    documentHash: require(path.join(root, 'dist/src/modules/content/domain/document-hash')).documentHash,
  };
  const { OnboardingService } = require(path.join(root, 'dist/src/modules/organizations/application/onboarding.service'));
  const { OrganizationsService } = require(path.join(root, 'dist/src/modules/organizations/application/organizations.service'));
  const { user, token } = await app.get(OnboardingService).registerUser({ email: 'bench@example.com', displayName: 'Bench' });
  const { organization } = await app.get(OrganizationsService).create(user, { title: 'Bench org' });
  return { app, services, user, token, organization };
}

module.exports = { WORDS, body, seedSpace, seedContext };
