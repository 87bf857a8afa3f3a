// Part of production-check.sh: with a user's token, creates an organization and a space, imports the
// repository at argv[4] through Git Sync (the worker runs it) and checks the pages it made.
// Usage: node production-check-import.js BASE_URL TOKEN REPO_URL
const [base, token, repo] = process.argv.slice(2);

async function call(method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function expectStatus(method, path, body, status) {
  const answer = await call(method, path, body);
  if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

(async () => {
  const org = await expectStatus('POST', '/v1/orgs', { title: 'Production check' }, 201);
  const space = await expectStatus('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Imported' }, 201);
  await expectStatus('POST', `/v1/spaces/${space.id}/git/import`, { url: repo, ref: 'refs/heads/main' }, 204);
  const deadline = Date.now() + 60_000;
  let info;
  for (;;) {
    info = await call('GET', `/v1/spaces/${space.id}/git/info`);
    if (info.status === 200 && info.body.operation?.state !== 'running') break;
    if (Date.now() > deadline) throw new Error(`the import did not finish in 60 s: ${JSON.stringify(info.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (info.body.operation.state !== 'success') throw new Error(`the import failed: ${JSON.stringify(info.body.operation)}`);
  const content = await expectStatus('GET', `/v1/spaces/${space.id}/content`, undefined, 200);
  const titles = [];
  const walk = (pages) => pages.forEach((page) => (titles.push(page.title), walk(page.pages ?? [])));
  walk(content.pages);
  const expected = ['Welcome', 'Getting started'];
  if (expected.some((title) => !titles.includes(title))) throw new Error(`imported pages ${JSON.stringify(titles)}, expected ${JSON.stringify(expected)}`);
  process.stdout.write(`${titles.length} pages`);
})().catch((error) => {
  process.stderr.write(`production-check: ${error.message}\n`);
  process.exit(1);
});
