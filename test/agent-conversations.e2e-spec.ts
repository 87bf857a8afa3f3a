import { AddressInfo } from 'node:net';
import { TestApp, TestUser } from '@app/testing';
import { publish } from './search.fixtures';
import { startFakeAiProvider } from './support/fake-ai-provider';
import { contractTransport } from './support/contract-transport';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { GitBookAPI } = require('gitbook-api-current');

/**
 * Agent conversations, the organization's (list, provision, update, delete) and a change request's
 * (list, update, delete), through the current official client; questions in a conversation answered
 * from what the caller can read and kept with their answers; shared and private conversations; who
 * may rename and delete.
 */
describe('Agent conversations', () => {
  let fake: Awaited<ReturnType<typeof startFakeAiProvider>>;
  let t: TestApp;
  let alice: TestUser, bob: TestUser, mallory: TestUser;
  let org: string, space: string, cr: string;
  let endpoint: string;
  const client = (user: TestUser) => new GitBookAPI({ endpoint, authToken: user.token, serviceBinding: contractTransport() });
  const send = async (user: TestUser, path: string, question: string) => {
    const res = await fetch(`${endpoint}/v1${path}/messages`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ input: [{ role: 'user', content: question }] }) });
    const text = await res.text();
    return { status: res.status, events: text.split('\n\n').filter((chunk) => chunk.startsWith('data: ')).map((chunk) => JSON.parse(chunk.slice(6))) };
  };
  const userPrompt = () => fake.requests.at(-1)!.body.messages.find((m) => m.role === 'user')!.content;

  beforeAll(async () => {
    fake = await startFakeAiProvider();
    t = await TestApp.start({ outboundAllowPrivate: true, aiApiUrl: fake.url, aiApiKey: 'sk-c', aiModel: 'fake-model', aiMaxRetries: 0 });
    [alice, bob, mallory] = [await t.user('Alice'), await t.user('Bob'), await t.user('Mallory')];
    org = await t.organization(alice, [[bob, 'edit']]);
    await t.organization(mallory, [], 'Elsewhere');
    space = (await alice.client.must.post<any>(`/v1/orgs/${org}/spaces`, { title: 'Guides' })).body.id;
    await publish(t, space, [{ id: 'install', title: 'Install the gizmo', slug: 'install', body: '## Linux\n\nRun the gizmo installer with sudo.\n\n## Windows\n\nRun setup.exe for the gizmo.' }]);
    cr = (await alice.client.must.post<any>(`/v1/spaces/${space}/change-requests`, { subject: 'Docs' })).body.id;
    await t.app.listen(0, '127.0.0.1');
    endpoint = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('provisions a conversation, answers in it and keeps the exchange, titled by its first question', async () => {
    expect((await client(bob).orgs.provisionOrganizationAgentConversation(org, 'conv-1')).status).toBe(204);
    expect((await client(bob).orgs.provisionOrganizationAgentConversation(org, 'conv-1')).status).toBe(204);
    fake.answerWith(() => 'Run the installer [1].');
    const first = await send(bob, `/orgs/${org}/agent/conversations/conv-1`, 'How do I install the gizmo?');
    expect(first.status).toBe(200);
    expect(first.events.map((e) => e.type)).toEqual(['response_start', 'response_step_start', 'response_tool_call', 'response_document', 'response_finish']);
    fake.answerWith(() => 'Run setup.exe [1].');
    const second = await send(bob, `/orgs/${org}/agent/conversations/conv-1`, 'and on Windows?');
    expect(second.events.at(-1).response.previous).toBe(first.events.at(-1).response.id);
    expect(userPrompt()).toContain('setup.exe');

    const conversation = (await bob.client.get<any>(`/v1/orgs/${org}/agent/conversations/conv-1`)).body;
    expect(conversation).toMatchObject({ object: 'agent-conversation', id: 'conv-1', title: 'How do I install the gizmo?', shared: true });
    expect(conversation.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(JSON.stringify(conversation.messages[3])).toContain('setup.exe');

    const list = (await client(alice).orgs.listOrganizationAgentConversations(org)).data;
    expect(list.items.map((c: any) => c.id)).toEqual(['conv-1']);
  });

  it('refuses a message without a question with a 400, and records nothing', async () => {
    expect((await client(bob).orgs.provisionOrganizationAgentConversation(org, 'conv-empty')).status).toBe(204);
    const path = `${endpoint}/v1/orgs/${org}/agent/conversations/conv-empty/messages`;
    for (const body of [{}, { input: [] }, { input: [{ role: 'user', content: '' }] }, { input: [{ role: 'user', content: '   ' }] }, { input: 'not a list' }, { input: [{ role: 'user' }] }]) {
      const res = await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(400);
    }
    // Nothing was recorded: the first question answered names the conversation.
    fake.answerWith(() => 'Run the installer [1].');
    expect((await send(bob, `/orgs/${org}/agent/conversations/conv-empty`, 'Where is the gizmo?')).status).toBe(200);
    expect((await bob.client.get<any>(`/v1/orgs/${org}/agent/conversations/conv-empty`)).body.title).toBe('Where is the gizmo?');
    expect((await bob.client.delete(`/v1/orgs/${org}/agent/conversations/conv-empty`)).status).toBe(205);
  });

  it('keeps private conversations to their creator; renaming and deleting are for the creator and admins', async () => {
    expect((await bob.client.put<any>(`/v1/orgs/${org}/agent/conversations/secret?shared=false`)).status).toBe(204);
    expect((await client(alice).orgs.listOrganizationAgentConversations(org)).data.items.map((c: any) => c.id)).toEqual(['conv-1']);
    expect((await client(bob).orgs.listOrganizationAgentConversations(org)).data.items.map((c: any) => c.id).sort()).toEqual(['conv-1', 'secret']);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/agent/conversations/secret`)).status).toBe(404);
    expect((await alice.client.put<any>(`/v1/orgs/${org}/agent/conversations/secret`)).status).toBe(404);

    expect((await client(alice).orgs.updateOrganizationAgentConversation(org, 'conv-1', { title: 'Installing' })).data).toMatchObject({ id: 'conv-1', title: 'Installing' });
    await alice.client.must.put(`/v1/orgs/${org}/agent/conversations/alices`);
    expect((await bob.client.patch<any>(`/v1/orgs/${org}/agent/conversations/alices`, { title: 'Mine now' })).status).toBe(403);
    expect((await bob.client.delete<any>(`/v1/orgs/${org}/agent/conversations/alices`)).status).toBe(403);
    expect((await alice.client.patch<any>(`/v1/orgs/${org}/agent/conversations/conv-1`, { title: '' })).status).toBe(400);
    expect((await client(alice).orgs.deleteOrganizationAgentConversation(org, 'conv-1')).status).toBe(205);
    expect((await alice.client.get<any>(`/v1/orgs/${org}/agent/conversations/conv-1`)).status).toBe(404);
    expect((await mallory.client.get<any>(`/v1/orgs/${org}/agent/conversations`)).status).toBe(404);
    expect((await mallory.client.put<any>(`/v1/orgs/${org}/agent/conversations/x`)).status).toBe(404);
    expect((await alice.client.put<any>(`/v1/orgs/${org}/agent/conversations/bad%20id`)).status).toBe(400);
  });

  it("keeps a change request's conversations with it, answered from its space", async () => {
    fake.answerWith(() => 'Use sudo [1].');
    const answer = await send(bob, `/spaces/${space}/change-requests/${cr}/conversations/default`, 'gizmo on Linux');
    expect(answer.status).toBe(200);
    const list = (await client(bob).spaces.listChangeRequestConversations(space, cr)).data;
    expect(list.items).toEqual([expect.objectContaining({ id: 'default', title: 'gizmo on Linux', shared: true })]);
    expect((await client(bob).spaces.updateChangeRequestConversation(space, cr, 'default', { title: 'Linux' })).data.title).toBe('Linux');
    // The organization's conversations and the change request's are apart.
    expect((await client(bob).orgs.listOrganizationAgentConversations(org)).data.items.map((c: any) => c.id)).not.toContain('default');
    expect((await mallory.client.get<any>(`/v1/spaces/${space}/change-requests/${cr}/conversations`)).status).toBe(404);
    expect((await client(alice).spaces.deleteChangeRequestConversation(space, cr, 'default')).status).toBe(205);
    expect((await client(bob).spaces.listChangeRequestConversations(space, cr)).data.items).toEqual([]);
  });
});
