import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { contractTransport } from './support/contract-transport';
import { commitContent } from './content.fixtures';

// The official clients, unchanged: the pinned contract version and the current one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: PinnedGitBookAPI } = require('@gitbook/api');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI: CurrentGitBookAPI } = require('gitbook-api-current');

/** Sites through the official clients: every call's answer is checked against the contract on its way back. */
describe.each([
  ['current', CurrentGitBookAPI, true],
  ['0.146.0', PinnedGitBookAPI, false],
])('the official @gitbook/api client (%s) on sites', (_name, GitBookAPI, current) => {
  let t: TestApp;
  let endpoint: string;
  let owner: TestUser;
  let orgId: string;
  let spaceId: string;
  let otherSpaceId: string;
  const transport = contractTransport();
  const calls = transport.calls;

  beforeAll(async () => {
    t = await TestApp.start({ secretsKey: Buffer.alloc(32, 5).toString('base64') });
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    owner = await t.user('Owner');
    orgId = await t.organization(owner);
    spaceId = (await owner.client.post<any>(`/v1/orgs/${orgId}/spaces`, { title: 'Handbook' })).body.id;
    otherSpaceId = (await owner.client.post<any>(`/v1/orgs/${orgId}/spaces`, { title: 'Changelog' })).body.id;
    await commitContent(t, spaceId, [{ title: 'Start', slug: 'start', body: 'Hello' }]);
  });
  afterAll(() => t.close());

  it('creates, structures, publishes and resolves a site', async () => {
    const api = new GitBookAPI({ endpoint, authToken: owner.token, serviceBinding: transport });
    const site = (await api.orgs.createSite(orgId, { title: 'Client site', spaces: [spaceId] })).data;
    expect(site).toMatchObject({ object: 'site', title: 'Client site', siteSpaces: 1 });
    expect((await api.orgs.updateSiteById(orgId, site.id, { basename: `client-${current ? 'c' : 'p'}` })).data.basename).toBe(`client-${current ? 'c' : 'p'}`);
    const section = (await api.orgs.addSectionToSite(orgId, site.id, { spaceId: otherSpaceId, title: 'Changes' })).data;
    expect(section.siteSpaces[0].space.id).toBe(otherSpaceId);
    const group = (await api.orgs.addSectionGroupToSite(orgId, site.id, { title: 'More', sections: [section.id] })).data;
    expect(group.children.map((c: { id: string }) => c.id)).toEqual([section.id]);
    expect((await api.orgs.listSiteSections(orgId, site.id)).data.items).toHaveLength(2);
    expect((await api.orgs.listSiteSpaces(orgId, site.id)).data.items).toHaveLength(2);
    const published = (await api.orgs.publishSite(orgId, site.id)).data;
    expect(published.published).toBe(true);
    const content = (await api.orgs.getPublishedContentSite(orgId, site.id)).data;
    expect(content.structure.type).toBe('sections');
    await api.orgs.updateSiteAdaptiveSchema(orgId, site.id, { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false } });
    expect((await api.orgs.listSiteAdaptiveTemplateConditions(orgId, site.id)).data.items).toEqual([{ description: 'Beta', condition: 'visitor.claims.beta == true' }]);
    const sectionSiteSpace = section.siteSpaces[0].id;
    const preview = (await api.orgs.getSitePublishingPreviewById(orgId, site.id, { siteSpace: sectionSiteSpace, claims: '(beta:!t)' })).data;
    expect(preview.url).toMatch(new RegExp(`^http://docs\\.test/sites/${site.id}/~preview/[\\w-]+\\.[\\w-]+\\.[\\w-]+/changes/$`));
    await expect(api.orgs.getSitePublishingPreviewById(orgId, site.id, { claims: '(beta:' })).rejects.toMatchObject({ code: 400 });

    if (current) {
      const sorted = (await api.orgs.sortSiteStructure(orgId, site.id, { item: { type: 'site-section-group', id: group.id } })).data;
      expect(sorted.id).toBe(group.id);
      const link = (await api.orgs.createSiteShareLink(orgId, site.id, { name: 'Review' })).data;
      expect(link.urls.published).toContain('/sites/client-c/');
      const resolved = (await api.urls.resolvePublishedContentByUrl({ url: `http://docs.test/sites/client-c/start` })).data;
      expect(resolved).toMatchObject({ site: site.id, pathname: 'start', space: spaceId });
      expect((await api.orgs.unpublishSite(orgId, site.id)).data.published).toBe(false);
      await api.orgs.inviteToSite(orgId, site.id, { role: 'read', users: [owner.id] });
      expect((await api.orgs.listUserPermissionsInSite(orgId, site.id)).data.items).toEqual([{ permission: 'read', user: expect.objectContaining({ id: owner.id }) }]);
      await api.orgs.updateUserPermissionInSite(orgId, site.id, owner.id, { role: 'edit' });
      expect((await api.orgs.listUserPermissionsInSite(orgId, site.id)).data.items[0].permission).toBe('edit');
      // An admin's role is the organization's: a grant below it changes nothing.
      expect((await api.orgs.listPermissionsAggregateInSite(orgId, site.id)).data.items[0]).toMatchObject({ permission: 'admin', origin: { type: 'organization' } });
      expect((await api.orgs.removeUserFromSite(orgId, site.id, owner.id)).status).toBe(205);
      expect((await api.orgs.listTeamPermissionsInSite(orgId, site.id)).data.items).toEqual([]);
    }
    await api.orgs.deleteSiteById(orgId, site.id);
    await expect(api.orgs.getSiteById(orgId, site.id)).rejects.toMatchObject({ code: 404 });
    expect(calls.length).toBeGreaterThan(10);
  });
});
