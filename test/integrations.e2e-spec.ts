import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { publish } from './search.fixtures';
import { contractTransport } from './support/contract-transport';
import { startFakeIntegration } from './support/fake-integration';
import { IntegrationEventSender } from '../src/modules/integrations/application/integration-event-sender';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

async function eventually<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const MANIFEST = {
  title: 'Notes',
  description: 'Keeps notes',
  scopes: ['space:content:read', 'site:metadata:read'],
  blocks: [{ id: 'note', title: 'A note' }],
  configurations: {
    account: { properties: { team: { type: 'string', title: 'Team' }, level: { type: 'number', title: 'Level' } }, required: ['team'] },
    space: { properties: { channel: { type: 'string', title: 'Channel' } } },
  },
  script: '',
};

/**
 * Every integrations operation of the current client (checked against GitBook's contract), who
 * may call each, the installation token's scopes-and-targets matrix, events, tasks, renders that
 * fail, development mode, and uninstalling.
 */
describe('Integrations', () => {
  const secret = randomBytes(24).toString('hex');
  let t: TestApp;
  let worker: TestWorker;
  let fake: Awaited<ReturnType<typeof startFakeIntegration>>;
  let tunnel: Awaited<ReturnType<typeof startFakeIntegration>>;
  let alice: TestUser, bob: TestUser, mallory: TestUser;
  let org: string, otherOrg: string, s1: string, s2: string, sB: string, siteA: string, siteA2: string;
  let installation: string;
  let endpoint: string;
  const transport = contractTransport();
  const api = (token: string) => new GitBookAPI({ endpoint, authToken: token, serviceBinding: transport });
  const client = (user: TestUser) => api(user.token);
  const raw = (token: string, method: 'get' | 'post' | 'patch', path: string, body?: object) => {
    const req = request(t.app.getHttpServer())[method](path).set('Authorization', `Bearer ${token}`);
    return body ? req.send(body) : req;
  };
  const status = (promise: Promise<unknown>) => promise.then(() => 200, (error: any) => error.status ?? error.response?.status ?? error);

  beforeAll(async () => {
    t = await TestApp.start({ outboundAllowPrivate: true, secretsKey: randomBytes(32).toString('base64'), eventsSweepMs: 500 });
    worker = await TestWorker.start(t);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    fake = await startFakeIntegration(secret);
    tunnel = await startFakeIntegration(secret);
    [alice, bob, mallory] = [await t.user('Alice'), await t.user('Bob'), await t.user('Mallory')];
    org = await t.organization(alice, [[bob, 'read']]);
    otherOrg = await t.organization(mallory, [], 'Elsewhere');
    s1 = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'One' })).body.id;
    s2 = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Two' })).body.id;
    sB = (await mallory.client.must.post<any>(`/v1/orgs/${otherOrg}/spaces`, { title: 'Theirs' })).body.id;
    await publish(t, s1, [{ id: 'p1', title: 'Page', slug: 'page', body: 'Hello.\n\n{% integration integration="notes" block="note" props="{\\"name\\":\\"reader\\"}" %}' }]);
    siteA = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [s1] })).body.id;
    siteA2 = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Other', spaces: [s2] })).body.id;
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await fake.close();
    await tunnel.close();
  });

  describe('publishing', () => {
    it('refuses bad manifests, non-admins, strangers, public listing by an organization admin, and a taken name', async () => {
      const body = { ...MANIFEST, organization: org, endpoint: fake.url, secrets: { signingSecret: secret } };
      expect(await status(client(alice).integrations.publishIntegration('Bad Name', body))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, endpoint: undefined }))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, endpoint: 'ftp://x.example' }))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, scopes: ['space:everything'] }))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, title: 'x'.repeat(31) }))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, secrets: { signingSecret: 'short' } }))).toBe(400);
      expect(await status(client(alice).integrations.publishIntegration('notes', { ...body, visibility: 'public' }))).toBe(403);
      expect(await status(client(bob).integrations.publishIntegration('notes', body))).toBe(403);
      expect(await status(client(mallory).integrations.publishIntegration('notes', body))).toBe(404);
      const first = (await client(alice).integrations.publishIntegration('notes', body)).data;
      expect(first).toMatchObject({ object: 'integration', name: 'notes', version: 1, visibility: 'private', target: 'all', scopes: MANIFEST.scopes, permissions: { admin: true }, urls: { publicEndpoint: fake.url } });
      expect(first.signingSecret).toBeUndefined();
      expect(await status(client(mallory).integrations.publishIntegration('notes', { ...body, organization: otherOrg }))).toBe(403);
      const again = (await client(alice).integrations.publishIntegration('notes', { organization: org, description: 'Keeps notes, better', title: 'Notes', scopes: MANIFEST.scopes, script: '' })).data;
      expect(again).toMatchObject({ version: 2, description: 'Keeps notes, better', blocks: MANIFEST.blocks, configurations: MANIFEST.configurations });
    });

    it('makes a signing secret when none is given, shows it once, and never again', async () => {
      const made = (await client(alice).integrations.publishIntegration('shared-notes', { title: 'Shared notes', description: '', scopes: ['space:content:read'], organization: org, endpoint: fake.url, visibility: 'unlisted', script: '' })).data;
      expect(made.signingSecret).toMatch(/^[\w-]{43}$/);
      const read = (await client(alice).integrations.getIntegrationByName('shared-notes')).data;
      expect(JSON.stringify(read)).not.toContain(made.signingSecret);
      const republished = (await client(alice).integrations.publishIntegration('shared-notes', { title: 'Shared notes', description: '', scopes: ['space:content:read'], organization: org, script: '' })).data;
      expect(republished.signingSecret).toBeUndefined();
    });

    it('shows private integrations to their publisher only, unlisted ones by name to anyone', async () => {
      expect((await client(bob).integrations.getIntegrationByName('notes')).data.permissions).toEqual({ admin: false });
      expect(await status(client(mallory).integrations.getIntegrationByName('notes'))).toBe(404);
      expect((await client(mallory).integrations.getIntegrationByName('shared-notes')).data.name).toBe('shared-notes');
      const listed = (await client(mallory).integrations.listIntegrations()).data.items.map((i: any) => i.name);
      expect(listed).not.toContain('notes');
      expect(listed).not.toContain('shared-notes');
      expect((await client(alice).integrations.listIntegrations({ search: 'shared' })).data.items.map((i: any) => i.name)).toEqual(['shared-notes']);
      expect((await client(alice).integrations.listIntegrations({ blocks: true })).data.items.map((i: any) => i.name)).toEqual(['notes']);
      expect(await status(client(alice).integrations.listIntegrations({ scope: 'space:nothing' } as any))).toBe(400);
    });
  });

  describe('installing', () => {
    it('on the organization: admins only, the configuration checked against the manifest, pending until complete', async () => {
      expect(await status(client(bob).integrations.installIntegration('notes', { organization: org }))).toBe(403);
      expect(await status(client(mallory).integrations.installIntegration('notes', { organization: otherOrg }))).toBe(404);
      const created = await client(alice).integrations.installIntegration('notes', { organization: org });
      expect(created.status).toBe(201);
      installation = created.data.id;
      expect(created.data).toMatchObject({ status: 'pending', configuration: {}, spaces: 0, externalIds: [] });
      const fake1 = fake.calls.length;
      expect((await raw(alice.token, 'post', '/v1/integrations/notes/installations', { organization: org })).status).toBe(200);
      expect(await status(client(alice).integrations.updateIntegrationInstallation('notes', installation, { configuration: { team: 'docs', bogus: 1 } }))).toBe(400);
      expect(await status(client(alice).integrations.updateIntegrationInstallation('notes', installation, { configuration: { team: 7 } }))).toBe(400);
      expect(await status(client(alice).integrations.updateIntegrationInstallation('notes', installation, { externalIds: ['1', '2', '3', '4', '5', '6'] }))).toBe(400);
      const updated = (await client(alice).integrations.updateIntegrationInstallation('notes', installation, { configuration: { team: 'docs' }, externalIds: ['acct-1'] })).data;
      expect(updated).toMatchObject({ status: 'active', configuration: { team: 'docs' }, externalIds: ['acct-1'] });
      expect((await client(alice).integrations.getIntegrationInstallationById('notes', installation)).data.status).toBe('active');
      expect(await status(client(mallory).integrations.getIntegrationInstallationById('notes', installation))).toBe(404);
      expect((await client(alice).integrations.listIntegrationInstallations('notes', { externalId: 'acct-1' })).data.items.map((n: any) => n.id)).toEqual([installation]);
      // The service heard the setup and the change, signed, with a token in a header.
      const setup = await eventually(() => fake.calls.slice(fake1).find((c) => c.path === '/events' && c.body.type === 'installation_setup' && c.body.previous));
      expect(setup).toMatchObject({ signed: true, body: { installationId: installation, status: 'active', previous: { status: 'pending' } } });
      expect(setup.token).toMatch(/^gbi_/);
    });

    it('on spaces and sites of its organization only, each configuration checked', async () => {
      expect((await client(alice).integrations.installIntegrationOnSpace('notes', installation, { space: s1 })).status).toBe(201);
      expect((await raw(alice.token, 'post', `/v1/integrations/notes/installations/${installation}/spaces`, { space: s1 })).status).toBe(200);
      expect(await status(client(alice).integrations.installIntegrationOnSpace('notes', installation, { space: sB }))).toBe(404);
      expect(await status(client(alice).integrations.installIntegrationOnSpace('notes', installation, { space: 'nope' }))).toBe(404);
      expect(await status(client(bob).integrations.installIntegrationOnSpace('notes', installation, { space: s1 }))).toBe(404);
      expect((await client(alice).integrations.installIntegrationOnSite('notes', installation, { siteId: siteA })).status).toBe(201);
      expect(await status(client(alice).integrations.updateIntegrationSpaceInstallation('notes', installation, s1, { configuration: { channel: 3 } }))).toBe(400);
      expect((await client(alice).integrations.updateIntegrationSpaceInstallation('notes', installation, s1, { configuration: { channel: '#docs' }, externalIds: ['c-1'] })).data).toMatchObject({ space: s1, configuration: { channel: '#docs' }, externalIds: ['c-1'] });
      expect((await client(alice).integrations.updateIntegrationSiteInstallation('notes', installation, siteA, { externalIds: ['w-1'] })).data).toMatchObject({ site: siteA, externalIds: ['w-1'] });
      expect((await client(alice).integrations.getIntegrationSpaceInstallation('notes', installation, s1)).data.space).toBe(s1);
      expect((await client(alice).integrations.getIntegrationSiteInstallation('notes', installation, siteA)).data.site).toBe(siteA);
      expect(await status(client(alice).integrations.getIntegrationSpaceInstallation('notes', installation, s2))).toBe(404);
      expect((await client(alice).integrations.listIntegrationInstallationSpaces('notes', installation)).data.items.map((i: any) => i.space)).toEqual([s1]);
      expect((await client(alice).integrations.listIntegrationInstallationSites('notes', installation)).data.items.map((i: any) => i.site)).toEqual([siteA]);
      expect((await client(alice).integrations.listIntegrationSpaceInstallations('notes', { externalId: 'c-1' })).data.items.map((i: any) => i.space)).toEqual([s1]);
      expect((await client(alice).integrations.listIntegrationSiteInstallations('notes')).data.items.map((i: any) => i.site)).toEqual([siteA]);
      expect(await status(client(bob).integrations.listIntegrationSpaceInstallations('notes'))).toBe(403);
      expect((await client(alice).integrations.getIntegrationInstallationById('notes', installation)).data.spaces).toBe(1);
    });

    it('answers what is installed where: organization, statuses, a space and its blocks, a site and its scripts', async () => {
      expect((await client(bob).orgs.listOrganizationIntegrations(org)).data.items.map((i: any) => i.name)).toEqual(['notes']);
      expect(await status(client(mallory).orgs.listOrganizationIntegrations(org))).toBe(404);
      expect((await client(bob).orgs.getOrganizationIntegrationStatus(org, 'notes')).data).toEqual({ status: 'active' });
      const installations = (await client(alice).orgs.listOrganizationInstallations(org)).data.items;
      expect(installations).toMatchObject([{ installation: { id: installation, spaces: 1, configuration: { team: 'docs' } }, integration: { name: 'notes', permissions: { admin: true } } }]);
      expect((await client(alice).orgs.listOrganizationInstallations(org, { search: 'nothing-like-it' })).data.items).toEqual([]);
      expect(await status(client(bob).orgs.listOrganizationInstallations(org))).toBe(403);
      expect(await status(client(mallory).orgs.listOrganizationInstallations(org))).toBe(404);
      expect(await status(client(bob).orgs.getOrganizationIntegrationStatus(org, 'shared-notes'))).toBe(404);
      const orgLevel = (await client(alice).orgs.listOrganizationIntegrationsStatus(org)).data.items;
      expect(orgLevel).toMatchObject([{ status: 'active', integration: { name: 'notes' }, target: { type: 'organization', organizationId: org } }]);
      expect((await client(alice).orgs.listOrganizationIntegrationsStatus(org, { target: 'space', space: s1 })).data.items).toMatchObject([{ target: { type: 'space', spaceId: s1 } }]);
      expect((await client(alice).orgs.listOrganizationIntegrationsStatus(org, { target: 'space', space: s2 })).data.items).toEqual([]);
      expect(await status(client(alice).orgs.listOrganizationIntegrationsStatus(org, { target: 'site' }))).toBe(400);
      expect((await client(bob).spaces.listSpaceIntegrations(s1)).data.items.map((i: any) => i.name)).toEqual(['notes']);
      expect((await client(bob).spaces.listSpaceIntegrations(s2)).data.items).toEqual([]);
      expect((await client(bob).spaces.listSpaceIntegrationsBlocks(s1)).data).toEqual([{ name: 'notes', blocks: MANIFEST.blocks }]);
      expect(await status(client(mallory).spaces.listSpaceIntegrationsBlocks(s1))).toBe(404);
      expect((await client(alice).orgs.listSiteIntegrations(org, siteA)).data.items.map((i: any) => i.name)).toEqual(['notes']);
      expect((await client(alice).orgs.listSiteIntegrationScripts(org, siteA)).data).toEqual([]);
    });
  });

  describe('installation tokens', () => {
    let token: string;

    it('are minted by the publisher for an hour, and reach the installation\'s targets with its scopes only', async () => {
      expect(await status(client(bob).integrations.createIntegrationInstallationToken('notes', installation))).toBe(403);
      expect(await status(client(mallory).integrations.createIntegrationInstallationToken('notes', installation))).toBe(404);
      const minted = await raw(alice.token, 'post', `/v1/integrations/notes/installations/${installation}/tokens`);
      expect(minted.status).toBe(200);
      expect(minted.headers['cache-control']).toBe('no-store');
      token = minted.body.token;
      expect(token).toMatch(/^gbi_[\w-]{43}$/);
      expect((await client(alice).integrations.createIntegrationInstallationToken('notes', installation)).data.token).not.toBe(token);
      const stored = await t.dataSource.query('SELECT token_hash FROM integration_installation_tokens');
      expect(JSON.stringify(stored)).not.toContain(token);

      // Targets: the installed space and site; not the others of the organization, nor another's.
      expect((await raw(token, 'get', `/v1/spaces/${s1}`)).status).toBe(200);
      expect((await raw(token, 'get', `/v1/spaces/${s1}/content`)).status).toBe(200);
      expect((await raw(token, 'get', `/v1/spaces/${s2}`)).status).toBe(404);
      expect((await raw(token, 'get', `/v1/spaces/${sB}`)).status).toBe(404);
      expect((await raw(token, 'get', `/v1/orgs/${org}/sites/${siteA}`)).status).toBe(200);
      expect((await raw(token, 'get', `/v1/orgs/${org}/sites/${siteA2}`)).status).toBe(404);
      expect((await raw(token, 'get', `/v1/orgs/${otherOrg}/sites`)).status).toBe(404);
      // Scopes: no space:content:write, so no comment; routes that declare no scope refuse the token.
      const comment = await raw(token, 'post', `/v1/spaces/${s1}/comments`, { body: { markdown: 'hi' } });
      expect(comment.status).toBe(403);
      expect(comment.body.error.message).toContain('space:content:write');
      expect((await raw(token, 'get', `/v1/orgs/${org}/members`)).status).toBe(403);
      expect((await raw(token, 'post', `/v1/orgs/${org}/spaces`, { title: 'Mine' })).status).toBe(403);
      // Its own installation: read and configure it, never widen it nor mint tokens.
      expect((await api(token).integrations.getIntegrationInstallationById('notes', installation)).data.id).toBe(installation);
      expect((await api(token).integrations.updateIntegrationInstallation('notes', installation, { externalIds: ['acct-2'] })).data.externalIds).toEqual(['acct-2']);
      expect((await api(token).integrations.listIntegrationInstallations('notes')).data.items.map((n: any) => n.id)).toEqual([installation]);
      expect(await status(api(token).integrations.installIntegrationOnSpace('notes', installation, { space: s2 }))).toBe(403);
      expect(await status(api(token).integrations.createIntegrationInstallationToken('notes', installation))).toBe(403);
      expect(await status(api(token).integrations.uninstallIntegration('notes', installation))).toBe(403);
      expect((await raw('gbi_forged', 'get', `/v1/spaces/${s1}`)).status).toBe(401);
    });

    it("of another organization's installation never reach this organization", async () => {
      const theirs = (await client(mallory).integrations.installIntegration('shared-notes', { organization: otherOrg })).data.id;
      await client(mallory).integrations.installIntegrationOnSpace('shared-notes', theirs, { space: sB });
      const foreign = (await client(alice).integrations.createIntegrationInstallationToken('shared-notes', theirs)).data.token;
      expect((await raw(foreign, 'get', `/v1/spaces/${sB}`)).status).toBe(200);
      expect((await raw(foreign, 'get', `/v1/spaces/${s1}`)).status).toBe(404);
      // Its integration has no site:metadata:read: refused by scope before anything is looked up.
      expect((await raw(foreign, 'get', `/v1/orgs/${org}/sites/${siteA}`)).status).toBe(403);
      expect(await status(api(foreign).integrations.getIntegrationInstallationById('notes', installation))).toBe(404);
    });

    it('expire after an hour', async () => {
      t.clock.advance(61 * 60 * 1000);
      try {
        expect((await raw(token, 'get', `/v1/spaces/${s1}`)).status).toBe(401);
      } finally {
        t.clock.advance(-61 * 60 * 1000);
      }
    });
  });

  describe('events and tasks', () => {
    it('content updates of installed spaces reach the service; other spaces do not', async () => {
      const from = fake.calls.length;
      await publish(t, s2, [{ id: 'x', title: 'X', slug: 'x', body: 'Not installed here.' }]);
      await publish(t, s1, [{ id: 'p1', title: 'Page', slug: 'page', body: 'Hello again.\n\n{% integration integration="notes" block="note" props="{\\"name\\":\\"reader\\"}" %}' }]);
      const updated = await eventually(() => fake.calls.slice(from).find((c) => c.body?.type === 'space_content_updated'));
      expect(updated.body).toMatchObject({ spaceId: s1, installationId: installation });
      expect(updated.signed).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.calls.slice(from).filter((c) => c.body?.type === 'space_content_updated' && c.body.spaceId === s2)).toEqual([]);
      const events = (await client(alice).integrations.listIntegrationEvents('notes')).data.items;
      expect(events.filter((e: any) => e.payload.type === 'space_content_updated').map((e: any) => e.payload.spaceId)).toEqual([s1]);
      expect(await status(client(mallory).integrations.listIntegrationEvents('notes'))).toBe(404);
      expect(await status(client(bob).integrations.listIntegrationEvents('notes'))).toBe(403);
    });

    it('each try is sent once: a job run again, and the sweep, send nothing more once an event is settled', async () => {
      const sender = t.get<IntegrationEventSender>(IntegrationEventSender);
      const delivered = (await client(alice).integrations.listIntegrationEvents('notes')).data.items.find((e: any) => e.status === 'success');
      const before = fake.calls.length;
      expect(await sender.send(delivered.id, 1)).toBe('taken');
      expect(await sender.send(delivered.id, 2)).toBe('taken');
      expect(await sender.sweep()).toBe(0);
      t.clock.advance(10 * 60 * 1000);
      try {
        expect(await sender.sweep()).toBe(0);
      } finally {
        t.clock.advance(-10 * 60 * 1000);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.calls.length).toBe(before);
    });

    it('a failing service gets the event again until it answers, each try logged', async () => {
      fake.setEventStatus(500);
      const token = (await client(alice).integrations.createIntegrationInstallationToken('notes', installation)).data.token;
      await api(token).integrations.queueIntegrationTask('notes', { task: { job: 'retry-me' } });
      const failed = await eventually(async () => (await client(alice).integrations.listIntegrationEvents('notes')).data.items.find((e: any) => e.payload.type === 'task' && e.payload.task.job === 'retry-me'));
      await eventually(async () => (await client(alice).integrations.getIntegrationEvent('notes', failed.id)).data.trace.logs.length > 0);
      expect((await client(alice).integrations.getIntegrationEvent('notes', failed.id)).data).toMatchObject({ event: { status: 'failed' }, trace: { logs: [{ level: 'error', message: 'Try 1: HTTP 500' }] } });
      fake.setEventStatus(200);
      const done = await eventually(async () => {
        const read = (await client(alice).integrations.getIntegrationEvent('notes', failed.id)).data;
        return read.event.status === 'success' && read;
      });
      expect(done.trace.logs.map((l: any) => l.message)).toEqual(['Try 1: HTTP 500', 'Try 2: HTTP 200']);
    });

    it('tasks are queued by the integration (or its publisher, naming the installation), checked', async () => {
      const token = (await client(alice).integrations.createIntegrationInstallationToken('notes', installation)).data.token;
      const from = fake.calls.length;
      expect((await raw(token, 'post', '/v1/integrations/notes/tasks', { task: { sync: 'all' } })).status).toBe(204);
      await eventually(() => fake.calls.slice(from).find((c) => c.body?.type === 'task' && c.body.task.sync === 'all'));
      expect((await raw(token, 'post', '/v1/integrations/notes/tasks', { task: { x: 1 }, schedule: 90000 })).status).toBe(400);
      expect((await raw(token, 'post', '/v1/integrations/notes/tasks', { task: 'no' })).status).toBe(400);
      expect((await raw(alice.token, 'post', '/v1/integrations/notes/tasks', { task: { x: 1 } })).status).toBe(400);
      expect((await raw(alice.token, 'post', '/v1/integrations/notes/tasks', { task: { installationId: installation } })).status).toBe(204);
      expect((await raw(bob.token, 'post', '/v1/integrations/notes/tasks', { task: { installationId: installation } })).status).toBe(403);
      expect((await raw(mallory.token, 'post', '/v1/integrations/notes/tasks', { task: { x: 1 } })).status).toBe(404);
    });
  });

  describe('renders', () => {
    const renderRequest = (spaceId: string) => ({ componentId: 'note', props: { name: 'api' }, context: { type: 'document' as const, spaceId, editable: false, theme: 'light' as const } });

    it('go to the service installed on the space, checked against ContentKit; failures are 502 and 404', async () => {
      expect((await client(bob).integrations.renderIntegrationUiWithPost('notes', renderRequest(s1))).data).toMatchObject({ type: 'element', element: { type: 'block' } });
      const call = fake.calls.filter((c) => c.path === '/render').at(-1)!;
      expect(call).toMatchObject({ signed: true, body: { type: 'ui_render', componentId: 'note', props: { name: 'api' }, spaceId: s1, installationId: installation } });
      expect(await status(client(bob).integrations.renderIntegrationUiWithPost('notes', renderRequest(s2)))).toBe(404);
      expect(await status(client(mallory).integrations.renderIntegrationUiWithPost('notes', renderRequest(s1)))).toBe(404);
      expect(await status(client(bob).integrations.renderIntegrationUiWithPost('notes', { ...renderRequest(s1), context: { type: 'configuration_account', theme: 'light' } } as any))).toBe(400);
      fake.setRender(() => ({ type: 'element', state: {}, props: {}, element: { type: 'block', children: [{ type: 'marquee' }] } }));
      const invalid = await raw(bob.token, 'post', '/v1/integrations/notes/render', { ...renderRequest(s1), props: { name: 'fresh' } });
      expect(invalid.status).toBe(502);
      expect(invalid.body.error.message).toContain('invalid ContentKit output');
      fake.setRender(() => ({ status: 500, body: { secret: 'stack trace' } }));
      const failed = await raw(bob.token, 'post', '/v1/integrations/notes/render', { ...renderRequest(s1), props: { name: 'fresher' } });
      expect(failed.status).toBe(502);
      expect(JSON.stringify(failed.body)).not.toContain('stack trace');
      fake.setRender(() => ({ raw: '<html>not json</html>' }));
      expect((await raw(bob.token, 'post', '/v1/integrations/notes/render', { ...renderRequest(s1), props: { name: 'freshest' } })).status).toBe(502);
    });

    it('are cached per props for a short while; state and actions always reach the service', async () => {
      let n = 0;
      fake.setRender((body) => ({ type: 'element', state: { n: ++n }, props: body.props, element: { type: 'block', children: [{ type: 'text', children: `render ${n}` }] } }));
      const request1 = { ...renderRequest(s1), props: { name: 'cached' } };
      const first = (await client(bob).integrations.renderIntegrationUiWithPost('notes', request1)).data;
      const second = (await client(bob).integrations.renderIntegrationUiWithPost('notes', request1)).data;
      expect(second).toEqual(first);
      const acted = (await client(bob).integrations.renderIntegrationUiWithPost('notes', { ...request1, state: first.state, action: { action: 'more' } })).data;
      expect(acted.state).toEqual({ n: 2 });
      expect(fake.calls.filter((c) => c.path === '/render').at(-1)!.body).toMatchObject({ state: { n: 1 }, action: { action: 'more' } });
    });

    it("are open to a published site's reader token (GitBook's renderer) and to installation tokens with space:content:read", async () => {
      await alice.client.must.patch(`/v1/orgs/${org}/sites/${siteA}`, { basename: 'docs' });
      await alice.client.must.post(`/v1/orgs/${org}/sites/${siteA}/publish`);
      const siteToken = (await t.client().post<any>('/v1/urls/published', { url: 'http://docs.test/sites/docs/page' })).body.apiToken;
      expect((await api(siteToken).integrations.renderIntegrationUiWithPost('notes', { ...renderRequest(s1), props: { name: 'site' } })).data.type).toBe('element');
      expect(await status(api(siteToken).integrations.renderIntegrationUiWithPost('notes', renderRequest(s2)))).toBe(404);
      const token = (await client(alice).integrations.createIntegrationInstallationToken('notes', installation)).data.token;
      expect((await api(token).integrations.renderIntegrationUiWithPost('notes', { ...renderRequest(s1), props: { name: 'token' } })).data.type).toBe('element');
    });

    it("readers' page feedback reaches integrations with page:feedback:read installed on the site, the reader anonymous", async () => {
      const from = fake.calls.length;
      const feedback = { events: [{ type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: 'Unclear' }, session: { visitorId: 'v9', sessionId: 's9' }, location: { url: 'http://docs.test/sites/docs/page', space: s1, page: 'p1' } }] };
      expect((await t.client().post(`/v1/orgs/${org}/sites/${siteA}/insights/events`, feedback)).status).toBe(204);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fake.calls.slice(from).filter((c) => c.body?.type === 'page_feedback')).toEqual([]);
      await client(alice).integrations.publishIntegration('notes', { organization: org, title: 'Notes', scopes: [...MANIFEST.scopes, 'page:feedback:read'], script: '' });
      expect((await t.client().post(`/v1/orgs/${org}/sites/${siteA}/insights/events`, feedback)).status).toBe(204);
      const heard = await eventually(() => fake.calls.slice(from).find((c) => c.body?.type === 'page_feedback'));
      expect(heard.body).toMatchObject({ installationId: installation, siteId: siteA, spaceId: s1, pageId: 'p1', feedback: { rating: 'bad', comment: 'Unclear' }, visitor: { cookies: {}, ip: '', userAgent: '' }, url: '/sites/docs/page' });
      expect(heard.body.visitor.anonymousId).not.toBe('v9');
      expect(heard.signed).toBe(true);
    });

    it('on a published page: a failing service shows a placeholder, never a broken page', async () => {
      fake.setRender(() => ({ status: 500, body: {} }));
      const page = await request(t.app.getHttpServer()).get('/sites/docs/page');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Hello again.');
      expect(page.text).toContain('This notes block is not available right now.');
      // The page waits 2 s for a block, not the 6 s this service takes.
      fake.setRender(() => ({ delayMs: 6000, type: 'element', state: {}, props: {}, element: { type: 'block', children: [] } }));
      const started = Date.now();
      const slow = await request(t.app.getHttpServer()).get('/sites/docs/page?slow=1');
      expect(slow.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(slow.text).toContain('not available right now');
    });

    it("site scripts: listed with the integration's declared sources (https only), loaded by the site's pages under that policy", async () => {
      const body = { title: 'Tracker', description: 'Counts', scopes: ['site:script:inject', 'site:script:cookies'], organization: org, endpoint: fake.url, secrets: { signingSecret: secret }, script: '', contentSecurityPolicy: { 'script-src': "https://cdn.example.com 'unsafe-inline' data:", 'connect-src': 'https://collect.example.com *' } };
      await client(alice).integrations.publishIntegration('tracker', body);
      const installed = (await client(alice).integrations.installIntegration('tracker', { organization: org })).data.id;
      expect(await status(client(alice).integrations.installIntegrationOnSpace('tracker', installed, { space: s1 }))).toBe(200);
      await client(alice).integrations.installIntegrationOnSite('tracker', installed, { siteId: siteA });
      const scripts = (await client(bob).orgs.listSiteIntegrationScripts(org, siteA)).data;
      expect(scripts).toEqual([{ script: `${fake.url}/script.js?site=${siteA}`, cookies: true, contentSecurityPolicy: expect.stringContaining('script-src') }]);
      expect(scripts[0].contentSecurityPolicy).toContain(`script-src ${fake.url} https://cdn.example.com`);
      expect(scripts[0].contentSecurityPolicy).toContain('connect-src ' + fake.url + ' https://collect.example.com');
      expect(scripts[0].contentSecurityPolicy).not.toMatch(/unsafe-inline|data:| \*/);
      expect((await client(alice).orgs.listSiteIntegrationScripts(org, siteA2)).data).toEqual([]);
      expect(await status(client(mallory).orgs.listSiteIntegrationScripts(org, siteA))).toBe(404);

      fake.setRender((b) => ({ type: 'element', state: {}, props: b.props, element: { type: 'block', children: [] } }));
      const page = await request(t.app.getHttpServer()).get('/sites/docs/page');
      expect(page.text).toContain(`<script src="${fake.url}/script.js?site=${siteA}" async></script>`);
      const csp = page.headers['content-security-policy'];
      expect(csp).toMatch(new RegExp(`script-src [^;]*${fake.url.replace(/[.]/g, '\\.')} https://cdn\\.example\\.com`));
      expect(/script-src [^;]*/.exec(csp)![0]).not.toMatch(/unsafe|data:/);
      expect(csp).toContain("default-src 'none'");
      // A revalidation with the page's ETag answers 304 with the same policy.
      const again = await request(t.app.getHttpServer()).get('/sites/docs/page').set('If-None-Match', page.headers.etag);
      expect(again.status).toBe(304);
      expect(again.headers['content-security-policy']).toBe(csp);

      expect((await client(alice).integrations.uninstallIntegrationFromSite('tracker', installed, siteA)).status).toBe(205);
      const after = await request(t.app.getHttpServer()).get('/sites/docs/page');
      expect(after.text).not.toContain('script.js');
      expect(after.headers['content-security-policy']).not.toContain('cdn.example.com');
      await client(alice).integrations.unpublishIntegration('tracker');
    });

    it('go to the tunnel in development mode (the publisher only), and back once it is off', async () => {
      expect(await status(client(bob).integrations.setIntegrationDevelopmentMode('notes', { tunnelUrl: tunnel.url }))).toBe(403);
      expect(await status(client(alice).integrations.setIntegrationDevelopmentMode('notes', { tunnelUrl: 'ftp://tunnel.example' }))).toBe(400);
      expect(await status(client(alice).integrations.setIntegrationDevelopmentMode('notes', { tunnelUrl: 'https://u:p@tunnel.example' }))).toBe(400);
      expect((await client(alice).integrations.setIntegrationDevelopmentMode('notes', { tunnelUrl: tunnel.url })).status).toBe(204);
      fake.setRender((body) => ({ type: 'element', state: {}, props: body.props, element: { type: 'block', children: [] } }));
      await client(bob).integrations.renderIntegrationUiWithPost('notes', { ...renderRequest(s1), props: { name: 'dev' } });
      expect(tunnel.calls.filter((c) => c.path === '/render').map((c) => c.body.props.name)).toEqual(['dev']);
      expect((await client(alice).integrations.disableIntegrationDevelopmentMode('notes')).status).toBe(205);
      await client(bob).integrations.renderIntegrationUiWithPost('notes', { ...renderRequest(s1), props: { name: 'prod' } });
      expect(tunnel.calls.filter((c) => c.path === '/render')).toHaveLength(1);
    });
  });

  describe('uninstalling and unpublishing', () => {
    it('removes the targets and tokens with them', async () => {
      const token = (await client(alice).integrations.createIntegrationInstallationToken('notes', installation)).data.token;
      expect((await client(alice).integrations.uninstallIntegrationFromSpace('notes', installation, s1)).status).toBe(205);
      expect((await raw(alice.token, 'delete' as any, `/v1/integrations/notes/installations/${installation}/spaces/${s1}`)).status).toBe(204);
      expect((await raw(token, 'get', `/v1/spaces/${s1}`)).status).toBe(404);
      expect((await client(alice).integrations.uninstallIntegrationFromSite('notes', installation, siteA)).status).toBe(205);
      expect((await raw(token, 'get', `/v1/orgs/${org}/sites/${siteA}`)).status).toBe(404);
      expect(await status(client(bob).integrations.uninstallIntegration('notes', installation))).toBe(403);
      expect(await status(client(mallory).integrations.uninstallIntegration('notes', installation))).toBe(404);
      expect((await client(alice).integrations.uninstallIntegration('notes', installation)).status).toBe(205);
      expect((await raw(token, 'get', `/v1/orgs/${org}/sites`)).status).toBe(401);
      expect(await status(client(alice).orgs.getOrganizationIntegrationStatus(org, 'notes'))).toBe(404);
      expect(await status(client(bob).integrations.unpublishIntegration('notes'))).toBe(403);
      expect((await client(alice).integrations.unpublishIntegration('notes')).status).toBe(205);
      expect(await status(client(alice).integrations.getIntegrationByName('notes'))).toBe(404);
    });
  });
});
