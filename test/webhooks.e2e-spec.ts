import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { TestApp, TestUser } from '@app/testing';
import { TestWorker } from '@app/testing/test-worker';
import { WebhookSender } from '../src/modules/events/application/webhook-sender.service';
import { verifySignature } from '../src/modules/events/domain/webhook-signature';
import { DeliveriesRepository } from '../src/modules/events/infrastructure/deliveries.repository';
import { until } from './support/worker-process';
import { WebhookReceiver } from './support/webhook-receiver';

const HOUR = 60 * 60 * 1000;

describe('Webhooks', () => {
  let t: TestApp;
  let worker: TestWorker;
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let org: string;
  let otherOrg: string;
  let space: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await TestApp.start({
      outboundAllowPrivate: true,
      secretsKey: randomBytes(32).toString('base64'),
      webhooks: { retryBaseMs: 50, retryMaxMs: 200, disableAfterMs: 24 * HOUR, timeoutMs: 3000 },
      eventsSweepMs: 500,
    });
    worker = await TestWorker.start(t);
    owner = await t.user('Owner');
    editor = await t.user('Editor');
    outsider = await t.user('Outsider');
    org = await t.organization(owner, [[editor, 'edit']]);
    otherOrg = await t.organization(outsider);
    space = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
    await receiver.close();
  });

  const hooks = (org_: string) => `/v1/orgs/${org_}/webhooks`;
  async function webhook(body: Record<string, unknown>) {
    const res = await owner.client.post(hooks(org), { url: `${receiver.url}/hook`, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  }

  describe('management', () => {
    it('admins create one and see its secret once; reads never show it', async () => {
      const created = await owner.client.post(hooks(org), { url: `${receiver.url}/a`, events: ['space.updated', 'space.created'] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ object: 'webhook', url: `${receiver.url}/a`, events: ['space.updated', 'space.created'], spaces: null, active: true, disabled: null });
      expect(created.body.secret).toMatch(/^whsec_[\w-]{43}$/);
      const read = await owner.client.get(`${hooks(org)}/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.secret).toBeUndefined();
      // The address of its deliveries answers.
      expect(read.body.urls.deliveries).toBe(`http://docs.test/v1/orgs/${org}/webhooks/${created.body.id}/deliveries`);
      expect((await owner.client.get(new URL(read.body.urls.deliveries).pathname)).status).toBe(200);
      expect(JSON.stringify((await owner.client.get(hooks(org))).body)).not.toContain(created.body.secret);
      const stored = await t.dataSource.query(`SELECT secret_sealed FROM webhooks WHERE id = $1`, [created.body.id]);
      expect(stored[0].secret_sealed).not.toContain(created.body.secret.slice(6));

      const patched = await owner.client.patch(`${hooks(org)}/${created.body.id}`, { events: ['comment.created'], active: false });
      expect(patched.body).toMatchObject({ events: ['comment.created'], active: false });
      expect((await owner.client.delete(`${hooks(org)}/${created.body.id}`)).status).toBe(205);
      expect((await owner.client.delete(`${hooks(org)}/${created.body.id}`)).status).toBe(204);
      expect((await owner.client.get(`${hooks(org)}/${created.body.id}`)).status).toBe(404);
    });

    it('refuses bad input with a 400 and writes nothing', async () => {
      const before = await owner.client.get(hooks(org));
      const bad = [
        { url: 'ftp://example.com/x', events: ['space.updated'] },
        { url: 'https://user:pw@example.com/x', events: ['space.updated'] },
        { url: 'not a url', events: ['space.updated'] },
        { url: `${receiver.url}/x`, events: [] },
        { url: `${receiver.url}/x`, events: ['space.exploded'] },
        { url: `${receiver.url}/x`, events: ['space.updated'], spaces: [] },
        { url: `${receiver.url}/x`, events: ['space.updated'], unknown: 1 },
        { events: ['space.updated'] },
      ];
      for (const body of bad) {
        const res = await owner.client.post(hooks(org), body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body.error.code).toBe(400);
      }
      const { id } = await webhook({ events: ['space.updated'] });
      expect((await owner.client.patch(`${hooks(org)}/${id}`, {})).status).toBe(400);
      expect((await owner.client.patch(`${hooks(org)}/${id}`, { url: 'gopher://x' })).status).toBe(400);
      expect((await owner.client.get(hooks(org))).body.count).toBe(before.body.count + 1);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it("is for admins of the organization only: members get 403, others 404, and another organization's spaces are not a filter", async () => {
      const { id } = await webhook({ events: ['space.updated'] });
      expect((await editor.client.get(hooks(org))).status).toBe(403);
      expect((await editor.client.post(hooks(org), { url: `${receiver.url}/x`, events: ['space.updated'] })).status).toBe(403);
      expect((await outsider.client.get(hooks(org))).status).toBe(404);
      expect((await outsider.client.get(`${hooks(org)}/${id}`)).status).toBe(404);
      expect((await outsider.client.get(`${hooks(otherOrg)}/${id}`)).status).toBe(404);
      expect((await outsider.client.patch(`${hooks(otherOrg)}/${id}`, { active: false })).status).toBe(404);
      expect((await outsider.client.delete(`${hooks(otherOrg)}/${id}`)).status).toBe(204);
      const foreign = (await outsider.client.post(`/v1/orgs/${otherOrg}/spaces`, { title: 'Theirs' })).body.id;
      const refused = await owner.client.post(hooks(org), { url: `${receiver.url}/x`, events: ['space.updated'], spaces: [foreign] });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(foreign);
      expect((await owner.client.get(`${hooks(org)}/${id}`)).body.active).toBe(true);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });
  });

  describe('deliveries', () => {
    it('POSTs the event with the resource as the API shows it, signed over timestamp and body', async () => {
      const { id, secret } = await webhook({ events: ['space.updated'] });
      const title = `Renamed ${randomBytes(3).toString('hex')}`;
      expect((await owner.client.patch(`/v1/spaces/${space}`, { title })).status).toBe(200);
      const got = await until('the delivery', async () => receiver.received.find((r) => r.body?.resource?.title === title), 15000);
      expect(got.path).toBe('/hook');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-webhook-id']).toBe(id);
      expect(got.headers['x-webhook-event']).toBe('space.updated');
      expect(got.body).toMatchObject({
        object: 'event',
        type: 'space.updated',
        organization: org,
        space,
        actor: { type: 'user', user: owner.id },
        resource: { object: 'space', id: space, title },
      });
      const api = await owner.client.get(`/v1/spaces/${space}`);
      expect(got.body.resource).toEqual(api.body);

      const signature = String(got.headers['x-webhook-signature']);
      const now = Math.floor(Date.now() / 1000);
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(secret, signature, got.raw, now)).toBe(true);
      expect(verifySignature(secret, signature, got.raw.replace(title, 'Tampered'), now)).toBe(false);
      expect(verifySignature(secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), signature, got.raw, now)).toBe(false);
      expect(verifySignature(secret, signature, got.raw, now + 3600)).toBe(false);

      const log = await until('the settled delivery', async () => {
        const list = await owner.client.get(`${hooks(org)}/${id}/deliveries`);
        return list.body.items.find((d: any) => d.status === 'delivered');
      }, 10000);
      expect(log).toMatchObject({ object: 'webhook-delivery', webhook: id, event: { type: 'space.updated' }, attempts: 1, lastStatus: 200 });

      // After a rotation only the new secret verifies.
      const rotated = await owner.client.post(`${hooks(org)}/${id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(secret);
      const again = `Again ${randomBytes(3).toString('hex')}`;
      await owner.client.must.patch(`/v1/spaces/${space}`, { title: again });
      const next = await until('the next delivery', async () => receiver.received.find((r) => r.body?.resource?.title === again), 15000);
      const nextSignature = String(next.headers['x-webhook-signature']);
      expect(verifySignature(rotated.body.secret, nextSignature, next.raw, Math.floor(Date.now() / 1000))).toBe(true);
      expect(verifySignature(secret, nextSignature, next.raw, Math.floor(Date.now() / 1000))).toBe(false);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it('a receiver that fails and then recovers gets the delivery; the log shows every attempt', async () => {
      const { id } = await owner.client.post(hooks(org), { url: `${receiver.url}/flaky`, events: ['space.updated'] }).then((r) => r.body);
      receiver.answer('/flaky', 500, 503);
      const title = `Flaky ${randomBytes(3).toString('hex')}`;
      await owner.client.must.patch(`/v1/spaces/${space}`, { title });
      const delivered = await until('the third attempt to succeed', async () => {
        const list = await owner.client.get(`${hooks(org)}/${id}/deliveries`);
        const d = list.body.items[0];
        return d?.status === 'delivered' ? d : undefined;
      }, 20000);
      expect(delivered.attempts).toBe(3);
      const detail = await owner.client.get(`${hooks(org)}/${id}/deliveries/${delivered.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.log.map((a: any) => a.response.status)).toEqual([500, 503, 200]);
      expect(detail.body.log[0].error).toBe('HTTP 500');
      expect(detail.body.log[0].response.headers['x-receiver']).toBe('test');
      expect(detail.body.log[0].response.body.length).toBe(1024);
      expect(detail.body.log[0].request.headers['x-webhook-signature']).toMatch(/^t=/);
      expect(JSON.parse(detail.body.request.body).resource.title).toBe(title);
      const attempts = receiver.received.filter((r) => r.body?.resource?.title === title);
      expect(attempts.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
      expect(new Set(attempts.map((r) => r.raw)).size).toBe(1);
      expect((await owner.client.get(`${hooks(org)}/${id}`)).body.failingSince).toBeNull();
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it("a stalled job run again after the sweep took its try sends nothing", async () => {
      const { id } = await owner.client.post(hooks(org), { url: `${receiver.url}/stalled`, events: ['space.updated'] }).then((r) => r.body);
      await owner.client.must.patch(`/v1/spaces/${space}`, { title: `Stalled ${randomBytes(3).toString('hex')}` });
      const delivery = await until('the delivery', async () => (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items.find((d: any) => d.status === 'delivered'), 15000);
      // What a worker leaves when it dies mid-try: try 1 taken by its job, the lease an hour ahead (so the periodic sweep waits).
      const now = t.clock.now().getTime();
      await t.dataSource.query(`UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL, claimed_by = 'stalled-job', next_attempt_at = $2 WHERE id = $1`, [delivery.id, new Date(now + HOUR)]);
      const sent = receiver.received.filter((r) => r.path === '/stalled').length;
      // Two hours on, the sweep finds the lease passed and takes the try for a job of its own.
      const stuck = await worker.get(DeliveriesRepository).takeStuck(new Date(now + 2 * HOUR), new Date(now + 3 * HOUR), 1000);
      expect(stuck).toContainEqual({ id: delivery.id, attempts: 1 });
      // The backend re-runs the stalled job: it may not send the try beside the sweep's job.
      expect(await worker.get(WebhookSender).send({ deliveryId: delivery.id, attempt: 1 }, 'stalled-job')).toBe('taken');
      expect(receiver.received.filter((r) => r.path === '/stalled').length).toBe(sent);
      // The sweep's job, try 2, sends it.
      expect(await worker.get(WebhookSender).send({ deliveryId: delivery.id, attempt: 2 }, 'sweep-job')).toBe('delivered');
      expect(receiver.received.filter((r) => r.path === '/stalled').length).toBe(sent + 1);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it('replays a past delivery: a new delivery with the same event and body', async () => {
      const { id } = await webhook({ events: ['space.updated'] });
      const title = `Replay ${randomBytes(3).toString('hex')}`;
      await owner.client.must.patch(`/v1/spaces/${space}`, { title });
      const first = await until('the delivery', async () => (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items.find((d: any) => d.status === 'delivered'), 15000);
      const replay = await owner.client.post(`${hooks(org)}/${id}/deliveries/${first.id}/replay`);
      expect(replay.status).toBe(201);
      expect(replay.body).toMatchObject({ replayOf: first.id, event: first.event, status: 'pending', attempts: 0 });
      await until('the replay to arrive', async () => receiver.received.filter((r) => r.body?.resource?.title === title).length === 2, 15000);
      const [a, b] = receiver.received.filter((r) => r.body?.resource?.title === title);
      expect(b.raw).toBe(a.raw);
      expect(b.headers['x-webhook-delivery']).toBe(replay.body.id);
      expect((await owner.client.post(`${hooks(org)}/${id}/deliveries/nope/replay`)).status).toBe(404);
      expect((await outsider.client.post(`${hooks(org)}/${id}/deliveries/${first.id}/replay`)).status).toBe(404);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it('disables a webhook whose deliveries fail for the whole retry window, and says why', async () => {
      const { id } = await owner.client.post(hooks(org), { url: `${receiver.url}/down`, events: ['space.updated'] }).then((r) => r.body);
      receiver.answerAlways('/down', 502);
      try {
        await owner.client.must.patch(`/v1/spaces/${space}`, { title: `Down ${randomBytes(3).toString('hex')}` });
        await until('a failed attempt', async () => (await owner.client.get(`${hooks(org)}/${id}`)).body.failingSince, 15000);
        t.clock.advance(25 * HOUR);
        const disabled = await until('the webhook to be disabled', async () => {
          const w = (await owner.client.get(`${hooks(org)}/${id}`)).body;
          return w.active === false ? w : undefined;
        }, 20000);
        expect(disabled.disabled.reason).toMatch(/failed for 24 hours.*HTTP 502/);
        const deliveries = (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items;
        expect(deliveries.every((d: any) => d.status === 'failed')).toBe(true);
        expect((await owner.client.post(`${hooks(org)}/${id}/deliveries/${deliveries[0].id}/replay`)).status).toBe(409);
        // Turning it on again clears the record.
        const on = await owner.client.patch(`${hooks(org)}/${id}`, { active: true });
        expect(on.body).toMatchObject({ active: true, disabled: null, failingSince: null });
      } finally {
        receiver.answerAlways('/down', null);
      }
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it('stops when its creator is no longer an admin, says why, and delivers again once an admin turns it on', async () => {
      const ada = await t.user('Ada');
      const o = await t.organization(owner, [[ada, 'admin']], 'Handover');
      const s = (await owner.client.post(`/v1/orgs/${o}/spaces`, { title: 'Handed over' })).body.id;
      const { id } = (await ada.client.post(hooks(o), { url: `${receiver.url}/handover`, events: ['space.updated'] })).body;
      const delivered = async () => (await owner.client.get(`${hooks(o)}/${id}/deliveries`)).body.items.length as number;
      await owner.client.must.patch(`/v1/spaces/${s}`, { title: 'First' });
      await until('the first delivery', async () => receiver.received.some((r) => r.body?.resource?.title === 'First'), 15000);
      expect((await owner.client.patch(`/v1/orgs/${o}/members/${ada.id}`, { role: 'read' })).status).toBeLessThan(300);
      await owner.client.must.patch(`/v1/spaces/${s}`, { title: 'Second' });
      const off = await until('the webhook to be turned off', async () => {
        const w = (await owner.client.get(`${hooks(o)}/${id}`)).body;
        return w.active === false ? w : undefined;
      }, 15000);
      expect(off.disabled.reason).toMatch(/no longer an admin/);
      expect(await delivered()).toBe(1);
      expect(receiver.received.some((r) => r.body?.resource?.title === 'Second')).toBe(false);
      // An admin turns it on: it is theirs now, and delivers.
      expect((await owner.client.patch(`${hooks(o)}/${id}`, { active: true })).body.active).toBe(true);
      await owner.client.must.patch(`/v1/spaces/${s}`, { title: 'Third' });
      // A delivery is listed (pending) before its request leaves, so wait for the receiver itself.
      await until('a delivery again', async () => receiver.received.some((r) => r.body?.resource?.title === 'Third'), 15000);
      expect(await delivered()).toBe(2);
    });

    it('does not follow redirects: a 3xx is a failed attempt', async () => {
      const { id } = await owner.client.post(hooks(org), { url: `${receiver.url}/moved`, events: ['space.updated'] }).then((r) => r.body);
      receiver.answer('/moved', 302);
      await owner.client.must.patch(`/v1/spaces/${space}`, { title: `Moved ${randomBytes(3).toString('hex')}` });
      const delivery = await until('the retry to succeed', async () => (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items.find((d: any) => d.status === 'delivered'), 15000);
      const detail = (await owner.client.get(`${hooks(org)}/${id}/deliveries/${delivery.id}`)).body;
      expect(detail.log[0]).toMatchObject({ response: { status: 302 }, error: 'HTTP 302 (redirects are not followed)' });
      expect(receiver.received.filter((r) => r.path === '/moved')).toHaveLength(2);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });

    it('refuses private addresses unless the operator allows them', async () => {
      const strict = await TestApp.start({ secretsKey: randomBytes(32).toString('base64'), webhooks: { retryBaseMs: 50, retryMaxMs: 100, disableAfterMs: HOUR, timeoutMs: 2000 } });
      const strictWorker = await TestWorker.start(strict);
      try {
        const admin = await strict.user('Admin');
        const o = await strict.organization(admin);
        const s = (await admin.client.post(`/v1/orgs/${o}/spaces`, { title: 'S' })).body.id;
        const created = await admin.client.post(`/v1/orgs/${o}/webhooks`, { url: `${receiver.url}/private`, events: ['space.updated'] });
        await admin.client.must.patch(`/v1/spaces/${s}`, { title: 'T' });
        const attempt = await until('an attempt', async () => {
          const d = (await admin.client.get(`/v1/orgs/${o}/webhooks/${created.body.id}/deliveries`)).body.items[0];
          if (!d || d.attempts === 0) return undefined;
          const detail = (await admin.client.get(`/v1/orgs/${o}/webhooks/${created.body.id}/deliveries/${d.id}`)).body;
          return detail.log[0];
        }, 15000);
        expect(attempt.response).toBeNull();
        expect(attempt.error).toMatch(/private|reserved|refused|not allowed/i);
        expect(receiver.received.some((r) => r.path === '/private')).toBe(false);
      } finally {
        await strictWorker.close();
        await strict.close();
      }
    });

    it('sends only what the webhook asked for, for the spaces it names', async () => {
      const other = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Other' })).body.id;
      const { id } = await webhook({ events: ['space.updated', 'change_request.created'], spaces: [space] });
      const marker = randomBytes(3).toString('hex');
      await owner.client.must.patch(`/v1/spaces/${other}`, { title: `Other ${marker}` });
      await owner.client.must.patch(`/v1/spaces/${space}`, { emoji: '1f600' });
      const cr = await owner.client.post(`/v1/spaces/${space}/change-requests`, { subject: `CR ${marker}` });
      expect(cr.status).toBe(201);
      await until('both deliveries', async () => (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items.filter((d: any) => d.status === 'delivered').length === 2, 15000);
      const bodies = (await owner.client.get(`${hooks(org)}/${id}/deliveries`)).body.items.map((d: any) => d.event.type).sort();
      expect(bodies).toEqual(['change_request.created', 'space.updated']);
      const crEvent = receiver.of('change_request.created').find((r) => r.body.resource.subject === `CR ${marker}`);
      expect(crEvent?.body.resource).toMatchObject({ object: 'change-request', id: cr.body.id, number: cr.body.number });
      expect(receiver.received.some((r) => r.body?.resource?.title === `Other ${marker}` && r.headers['x-webhook-id'] === id)).toBe(false);
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });
  });

  describe('the outbox', () => {
    const events = async () => Number((await t.dataSource.query(`SELECT count(*) FROM domain_events WHERE organization_id = $1`, [org]))[0].count);

    it('a change that is refused or rolled back announces nothing', async () => {
      const before = await events();
      const etag = (await owner.client.get(`/v1/spaces/${space}`)).headers.etag;
      expect((await owner.client.patch(`/v1/spaces/${space}`, { title: 'Moves the version' })).status).toBe(200);
      expect(await events()).toBe(before + 1);
      // Refused: a stale If-Match (412) and a missing role (403).
      const stale = await request(t.app.getHttpServer()).patch(`/v1/spaces/${space}`).set('Authorization', `Bearer ${owner.token}`).set('If-Match', etag).send({ title: 'Stale' });
      expect(stale.status).toBe(412);
      expect((await editor.client.patch(`/v1/spaces/${space}`, { defaultLevel: 'admin' })).status).toBe(403);
      // Rolled back: a constraint checked at commit fails after the event row was written in the transaction.
      await t.dataSource.query(`CREATE FUNCTION refuse_boom() RETURNS trigger AS $$ BEGIN IF NEW.title = 'Boom' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
      await t.dataSource.query(`CREATE CONSTRAINT TRIGGER refuse_boom AFTER UPDATE ON spaces DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_boom()`);
      try {
        const boom = await request(t.app.getHttpServer()).patch(`/v1/spaces/${space}`).set('Authorization', `Bearer ${owner.token}`).send({ title: 'Boom' });
        expect(boom.status).toBe(500);
      } finally {
        await t.dataSource.query(`DROP TRIGGER refuse_boom ON spaces; DROP FUNCTION refuse_boom()`);
      }
      expect((await owner.client.get(`/v1/spaces/${space}`)).body.title).toBe('Moves the version');
      expect(await events()).toBe(before + 1);
      const audited = await t.dataSource.query(`SELECT count(*) FROM audit_entries WHERE $1 = ANY(resource_ids) AND action = 'updateSpaceById'`, [space]);
      expect(Number(audited[0].count)).toBe(Number((await t.dataSource.query(`SELECT count(*) FROM domain_events WHERE space_id = $1 AND type = 'space.updated'`, [space]))[0].count));
    });

    it('records the events integrators watch, each with its resource', async () => {
      const { id } = await webhook({ events: ['space.created', 'space.deleted', 'space.restored', 'content.updated', 'change_request.merged', 'change_request.closed', 'comment.created', 'comment.resolved', 'member.added', 'member.removed', 'site.published', 'site.unpublished'] });
      const s = (await owner.client.post(`/v1/orgs/${org}/spaces`, { title: 'Lifecycle' })).body.id;
      const cr = (await owner.client.post(`/v1/spaces/${s}/change-requests`, { subject: 'Edit' })).body;
      const edit = await owner.client.post(`/v1/spaces/${s}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: 'New page', document: { markdown: 'Hello' } }],
      });
      expect(edit.status).toBe(200);
      expect((await owner.client.post(`/v1/spaces/${s}/change-requests/${cr.id}/merge`)).status).toBe(200);
      const closing = (await owner.client.post(`/v1/spaces/${s}/change-requests`, { subject: 'Drop' })).body;
      expect((await owner.client.patch(`/v1/spaces/${s}/change-requests/${closing.id}`, { status: 'archived' })).status).toBe(200);
      const comment = await owner.client.post(`/v1/spaces/${s}/comments`, { body: { markdown: 'Nice' } });
      expect(comment.status).toBe(200);
      expect((await owner.client.put(`/v1/spaces/${s}/comments/${comment.body.id}`, { resolved: true })).status).toBe(200);
      const site = await owner.client.post(`/v1/orgs/${org}/sites`, { title: 'Docs' });
      expect(site.status).toBe(201);
      expect((await owner.client.post(`/v1/orgs/${org}/sites/${site.body.id}/publish`)).status).toBe(200);
      expect((await owner.client.post(`/v1/orgs/${org}/sites/${site.body.id}/unpublish`)).status).toBe(200);
      const newcomer = await t.user('Newcomer');
      expect((await owner.client.post(`/v1/orgs/${org}/invites`, { emails: [{ email: newcomer.email, role: 'read' }] })).status).toBe(200);
      // Payloads are rendered when dispatched: let this one go out while the member is still there.
      await until('member.added delivered', async () => receiver.received.some((r) => r.headers['x-webhook-id'] === id && r.body.type === 'member.added'), 15000);
      expect((await owner.client.delete(`/v1/orgs/${org}/members/${newcomer.id}`)).status).toBe(205);
      expect((await owner.client.delete(`/v1/spaces/${s}`)).status).toBe(205);
      expect((await owner.client.post(`/v1/spaces/${s}/restore`)).status).toBe(200);

      const expected = ['space.created', 'change_request.merged', 'content.updated', 'change_request.closed', 'comment.created', 'comment.resolved', 'site.published', 'site.unpublished', 'member.added', 'member.removed', 'space.deleted', 'space.restored'];
      const deliveries = await until('every event delivered', async () => {
        const items = (await owner.client.get(`${hooks(org)}/${id}/deliveries`, { limit: 100 })).body.items;
        return items.filter((d: any) => d.status === 'delivered').length >= expected.length ? items : undefined;
      }, 20000);
      expect(deliveries.map((d: any) => d.event.type).sort()).toEqual([...expected].sort());
      const byType = (type: string) => receiver.received.find((r) => r.headers['x-webhook-id'] === id && r.body.type === type)!.body;
      expect(byType('content.updated')).toMatchObject({ space: s, resource: { object: 'space', id: s }, data: { revision: expect.any(String) } });
      expect(byType('change_request.merged').resource).toMatchObject({ object: 'change-request', id: cr.id, status: 'merged' });
      expect(byType('comment.resolved').resource).toMatchObject({ object: 'comment', id: comment.body.id, status: 'resolved' });
      expect(byType('site.published').resource).toMatchObject({ object: 'site', id: site.body.id });
      expect(byType('member.added').resource).toMatchObject({ object: 'member', user: { id: newcomer.id } });
      expect(byType('member.removed').resource).toEqual({ object: 'member', id: newcomer.id });
      // Rendered when dispatched: the space was restored right after, so the payload may show it whole.
      expect(byType('space.deleted').resource).toMatchObject({ object: 'space', id: s });
      await owner.client.must.delete(`${hooks(org)}/${id}`);
    });
  });
});
