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

describe('readHtmlPage on what real documentation generators write', () => {
  it('keeps <pre> blocks as code with their language, with or without <code>, highlighting spans and all', () => {
    const mkdocs = '<main><h1 id="x">Install<a class="headerlink" href="#x" title="Permanent link">¶</a></h1><div class="language-python highlight"><pre><span></span><code><span class="kn">import</span> <span class="nn">os</span>\nprint(`x`)\n</code></pre></div></main>';
    const page = readHtmlPage(mkdocs);
    expect(page.title).toBe('Install');
    expect(page.markdown).toBe('```python\nimport os\nprint(`x`)\n```');

    const sphinx = '<div role="main"><section><h2>Usage<a class="headerlink" href="#usage" title="Link to this heading">¶</a></h2><div class="highlight-bash notranslate"><div class="highlight"><pre><span></span>pip install x\n</pre></div></div></section></div>';
    expect(readHtmlPage(sphinx).markdown).toBe('## Usage\n\n```bash\npip install x\n```');

    const drf = '<div id="main-content" role="main"><h2 id="requests"><a class="toclink" href="#requests">Requests</a></h2><pre><code class="python">request.data\n</code></pre><pre>no language ``` here</pre></div>';
    expect(readHtmlPage(drf).markdown).toBe('## [Requests](#requests)\n\n```python\nrequest.data\n```\n\n````\nno language ``` here\n````');
  });

  it('drops heading permalinks: ¶, #, icon-font glyphs and empty anchors', () => {
    const html = '<main><h1>Guide <a href="#guide" class="anchor"><i class="fa fa-link"></i></a></h1><h2>One<a href="#one">#</a></h2><h3>Two <a href="#two">\uf0c1</a></h3><p>Body <a href="#one">back to one</a></p></main>';
    const page = readHtmlPage(html);
    expect(page.title).toBe('Guide');
    expect(page.markdown).toBe('## One\n\n### Two\n\nBody [back to one](#one)');
  });
});
