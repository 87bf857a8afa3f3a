import { readHtmlPage } from './html-page';

describe('readHtmlPage', () => {
  const html = `<!doctype html><html><head><title>Intro | Site</title><style>p{}</style></head><body>
    <header><a href="/">Home</a></header><nav><a href="/docs/a">A</a></nav>
    <main><h1>Getting  started</h1><p>Hello <b>world</b> &amp; <a href="b.html">b</a></p>
    <ul><li>one</li></ul><pre><code>npm i</code></pre><script>track()</script><form><input name="q"></form></main>
    <footer>© Site</footer></body></html>`;

  it("reads the main content as markdown, the first heading as the title, and every link", () => {
    const page = readHtmlPage(html);
    expect(page.title).toBe('Getting started');
    expect(page.markdown).toBe('Hello **world** & [b](b.html)\n\n-   one\n\n```\nnpm i\n```');
    expect(page.links).toEqual(['/', '/docs/a', 'b.html']);
  });

  it('falls back to the title element, the body, and "Untitled"', () => {
    expect(readHtmlPage('<title> Only  title </title><body><p>x</p></body>')).toMatchObject({ title: 'Only title', markdown: 'x' });
    expect(readHtmlPage('<p>bare</p>')).toMatchObject({ title: 'Untitled', markdown: 'bare' });
    expect(readHtmlPage('<article><h1>A</h1><p>in</p></article><p>out</p>').markdown).toBe('in');
  });
});
