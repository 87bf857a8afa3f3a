import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { compressToEncodedURIComponent } from 'lz-string';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { publish } from './search.fixtures';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createStatusBlockServer } = require('../examples/integrations/status-block/server.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const manifest = require('../examples/integrations/status-block/manifest.json');

async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 15000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The example integration (examples/integrations/status-block) end to end: started on a free port,
 * published and installed through the current official client, its block put in a page, the
 * published page rendered with the block, its button pressed (on the page and through the API, as
 * GitBook's renderer does), and its reaction to the content update: a comment written with its
 * installation token.
 */
describe('The status-block example integration', () => {
  const signingSecret = randomBytes(24).toString('hex');
  let t: TestApp;
  let worker: TestWorker;
  let service: Server & { received: any[] };
  let alice: TestUser;
  let org: string, space: string, site: string, installation: string;
  let endpoint: string;
  const transport = contractTransport();
  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: transport });
  const page = (query = '') => request(t.app.getHttpServer()).get(`/sites/status/${query}`);

  beforeAll(async () => {
    t = await TestApp.start({ outboundAllowPrivate: true, secretsKey: randomBytes(32).toString('base64'), eventsSweepMs: 500 });
    worker = await TestWorker.start(t);
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    service = createStatusBlockServer({ signingSecret, apiUrl: endpoint, log: (l: string) => process.env.DEBUG_EXAMPLE && console.log(l) });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    alice = await t.user('Alice');
    org = await t.organization(alice);
    space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Runbook' })).body.id;
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await new Promise((resolve) => service.close(resolve));
  });

  it('is published and installed on the organization and a space', async () => {
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const published = (await client(alice).integrations.publishIntegration('status-block', { ...manifest, organization: org, endpoint: serviceUrl, script: '', secrets: { signingSecret } })).data;
    expect(published).toMatchObject({ object: 'integration', name: 'status-block', version: 1, visibility: 'unlisted', scopes: manifest.scopes, blocks: manifest.blocks, permissions: { admin: true }, owner: { id: org } });
    expect(published.signingSecret).toBeUndefined();
    expect(JSON.stringify(published)).not.toContain(signingSecret);

    const installed = await client(alice).integrations.installIntegration('status-block', { organization: org });
    expect(installed.status).toBe(201);
    installation = installed.data.id;
    expect(installed.data).toMatchObject({ status: 'active', space_selection: 'selected', target: { organization: org }, configuration: {} });
    const onSpace = await client(alice).integrations.installIntegrationOnSpace('status-block', installation, { space });
    expect(onSpace.status).toBe(201);
    expect(onSpace.data).toMatchObject({ integration: 'status-block', installation, space, status: 'active' });
    // The service heard about both (installation_setup, space_installation_setup), signed.
    await eventually(async () => service.received.some((e) => e.type === 'space_installation_setup' && e.spaceId === space));
    expect(service.received.find((e) => e.type === 'installation_setup')).toMatchObject({ installationId: installation, status: 'active' });
  });

  it("renders its block on the published page, and a pressed button round-trips with the block's state", async () => {
    await publish(t, space, [{ id: 'status', title: 'Status', slug: 'status', body: 'Current status:\n\n{% integration integration="status-block" block="status" props="{\\"service\\":\\"Payments API\\"}" %}\n\nThat is all.' }]);
    site = (await alice.client.must.post<any>(`/v1/orgs/${org}/sites`, { title: 'Status', spaces: [space] })).body.id;
    await alice.client.must.patch(`/v1/orgs/${org}/sites/${site}`, { basename: 'status' });
    await alice.client.must.post(`/v1/orgs/${org}/sites/${site}/publish`);

    const first = await page();
    expect(first.status).toBe(200);
    expect(first.text).toContain('<strong>Payments API</strong> is operational');
    expect(first.text).toContain('That is all.');
    const form = /<form method="get" class="ck-form">(.*?)<\/form>/.exec(first.text)![1];
    const fields = Object.fromEntries([...form.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&')]));
    expect(fields).toEqual({ ck: '0', 'ck-state': '{"status":"operational"}', 'ck-action': '{"action":"toggle"}' });
    expect(first.text).toContain('Report an incident');
    expect(first.text).not.toContain('<script>document');

    // The reader presses the button: the page comes back with the block the service rendered for that action and state.
    const pressed = await page(`?${new URLSearchParams(fields)}`);
    expect(pressed.status).toBe(200);
    expect(pressed.text).toContain('<strong>Payments API</strong> is degraded');
    expect(pressed.headers['cache-control']).toBe('no-store');

    // GitBook's renderer: POST (and GET, lz-string compressed) render requests, then the action with the state it got.
    const renderRequest = { componentId: 'status', props: { service: 'Payments API' }, context: { type: 'document', spaceId: space, editable: false, theme: 'light' } };
    const rendered = (await client(alice).integrations.renderIntegrationUiWithPost('status-block', renderRequest)).data;
    expect(rendered).toMatchObject({ type: 'element', state: { status: 'operational' }, element: { type: 'block' } });
    const viaGet = (await client(alice).integrations.renderIntegrationUiWithGet('status-block', { request: compressToEncodedURIComponent(JSON.stringify(renderRequest)) })).data;
    expect(viaGet).toEqual(rendered);
    const toggled = (await client(alice).integrations.renderIntegrationUiWithPost('status-block', { ...renderRequest, state: rendered.state, action: { action: 'toggle' } })).data;
    expect(toggled.state).toEqual({ status: 'degraded' });
    expect(JSON.stringify(toggled.element)).toContain('Resolve the incident');
  });

  it('answers a content update with a comment written through its installation token, logged as an event', async () => {
    await publish(t, space, [{ id: 'status', title: 'Status', slug: 'status', body: 'Updated status page.' }]);
    const comment = await eventually(async () => {
      const comments = (await alice.client.get<any>(`/v1/spaces/${space}/comments`)).body.items ?? [];
      return comments.find((c: any) => JSON.stringify(c.body).includes('The status block noticed'));
    });
    expect(comment.postedBy).toMatchObject({ displayName: 'Service status' });
    // The service answers once its comment is written: the event is settled a moment after.
    const updated = await eventually(async () => {
      const events = (await client(alice).integrations.listIntegrationEvents('status-block')).data.items.filter((e: any) => e.payload.type === 'space_content_updated');
      return events.length === 2 && events.every((e: any) => e.status === 'success') && events[0];
    });
    expect(updated).toMatchObject({ status: 'success', installationId: installation, payload: { type: 'space_content_updated', spaceId: space } });
    const traced = (await client(alice).integrations.getIntegrationEvent('status-block', updated.id)).data;
    expect(traced.trace.logs[0]).toMatchObject({ level: 'info', message: 'Try 1: HTTP 200' });
    // The token went in a header only: never in what is stored of the event.
    const stored = await t.dataSource.query(`SELECT payload::text AS payload FROM integration_events`);
    expect(stored.map((r: any) => r.payload).join('')).not.toMatch(/gbi_/);
  });
});
