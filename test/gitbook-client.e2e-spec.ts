import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';

// The official clients, unchanged: the pinned contract version and the current one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

describe('the official @gitbook/api client', () => {
  let t: TestApp;
  let endpoint: string;
  let owner: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await TestApp.start();
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    owner = await t.user('Owner');
    reader = await t.user('Reader');
  });
  afterAll(() => t.close());

  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token });

  it('creates an organization with the current client and reads it back with the pinned one', async () => {
    const current = new CurrentGitBookAPI({ endpoint, authToken: owner.token });
    const created = await current.orgs.createOrganization({ title: 'Client Org' });
    expect(created.data).toMatchObject({ object: 'organization', title: 'Client Org' });

    const api = client(owner);
    const me = await api.user.getAuthenticatedUser();
    expect(me.data.id).toBe(owner.id);
    const org = await api.orgs.getOrganizationById(created.data.id);
    expect(org.data.permissions.admin).toBe(true);
    const list = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 10 });
    expect(list.data.items.map((o: { id: string }) => o.id)).toEqual([created.data.id]);

    const invited = await api.orgs.inviteUsersToOrganization(created.data.id, { emails: [reader.email], role: 'read' });
    expect(invited.data.users).toEqual([reader.id]);
  });

  it('surfaces our errors as GitBookAPIError with the status', async () => {
    const api = client(reader);
    await expect(api.orgs.getOrganizationById('missing')).rejects.toMatchObject({ code: 404 });
  });
});
