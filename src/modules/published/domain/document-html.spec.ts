import { markdownToDocument } from '../../content/domain/markdown';
import { documentOutline, documentText, renderDocument } from './document-html';
import { renderNotice, renderSitePage, themeScriptHash, THEME_SCRIPT } from './site-page-html';
import { createHash } from 'node:crypto';

const context = {
  pageHref: (id: string, anchor?: string) => (id === 'known' ? `/sites/x/known${anchor ? `#${anchor}` : ''}` : null),
  fileHref: (id: string) => (id === 'img' ? 'https://files.example/img.png' : null),
};

describe('renderDocument', () => {
  it('renders GitBook blocks with anchors, resolved page and file links', () => {
    const doc = markdownToDocument(
      '## Getting started\n\nSee [known](/pages/known#setup) and [gone](/pages/gone).\n\n{% hint style="danger" %}\nCareful\n{% endhint %}\n\n- [x] done\n\n1. one\n\n![diagram](/files/img "The diagram")\n\n| A | B |\n|:-:|--:|\n| 1 | **2** |\n\n```ts\nconst a = 1 < 2;\n```',
    );
    const html = renderDocument(doc, context);
    expect(html).toContain('<h3 id="getting-started">Getting started<a class="anchor" href="#getting-started"');
    expect(html).toContain('<a href="/sites/x/known#setup">known</a>');
    expect(html).toContain('<span class="broken-link">gone</span>');
    expect(html).toContain('<div class="hint hint-danger" role="note">');
    expect(html).toContain('<input type="checkbox" disabled checked');
    expect(html).toContain('<img src="https://files.example/img.png" alt="diagram" loading="lazy" /><figcaption>');
    expect(html).toContain('<th style="text-align:center">A</th>');
    expect(html).toContain('<td style="text-align:right"><p><strong>2</strong></p></td>');
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>');
    expect(documentOutline(doc)).toEqual([{ id: 'getting-started', title: 'Getting started', level: 2 }]);
  });

  it('links file blocks to where the file is served', () => {
    const html = renderDocument(markdownToDocument('{% file src="/files/img" %}\nThe diagram\n{% endfile %}'), context);
    expect(html).toContain('<p class="file"><a href="https://files.example/img.png">The diagram</a></p>');
  });

  it('never emits user markup or dangerous URLs', () => {
    const doc = markdownToDocument('<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) [y](data:text/html,hi) ["quoted"](https://e.example/?a="b")\n\n## <script>alert(2)</script>');
    const html = renderDocument(doc, context);
    expect(html).not.toMatch(/onerror|<script|href="javascript|href="data:/);
    // An HTML block is rendered through the allowlist: the image stays, its handler does not.
    expect(html).toContain('<img src="x" />');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('href="https://e.example/?a=%22b%22"');
  });

  it('renders HTML blocks kept from a repository through the allowlist, each on its own', () => {
    const doc = markdownToDocument('<div class="x" onclick="steal()">\n\nText\n\n</div>\n\n<script>alert(1)</script>\n\n<table data-view="cards"><tr><td><a href="javascript:x()">a</a></td></tr></table>');
    const html = renderDocument(doc, context);
    // The unclosed <div> is closed inside its own block; the paragraph after it is not wrapped.
    expect(html).toBe('<div class="x"></div>\n<p>Text</p>\n\n\n<table><tr><td><a>a</a></td></tr></table>');
  });

  it('gives plain text for descriptions, cut on a word', () => {
    const doc = markdownToDocument('First paragraph with **bold** words.\n\nSecond one that goes on and on.');
    expect(documentText(doc, 30)).toBe('First paragraph with bold…');
  });
});

describe('site pages', () => {
  const view = {
    siteTitle: 'Docs <b>',
    siteHref: '/sites/x/',
    pageTitle: 'Intro "x"',
    canonicalUrl: 'https://d.example/sites/x/intro',
    noindex: false,
    theme: { default: 'dark' as const, toggeable: true, primaryColor: { light: 'red;}body{color:pink', dark: '#123456' } },
    sections: [
      { title: 'Guides', href: '/sites/x/', active: true },
      { title: 'API', href: '/sites/x/api/', active: false, group: 'Reference' },
    ],
    variants: [],
    sidebar: [{ title: 'Intro', href: '/sites/x/intro', active: true, children: [] }],
    contentHtml: '<p>Body</p>',
    outline: [],
    searchAction: '/sites/x/~search',
  };

  it('escapes titles, marks the active items, takes only valid colours, and hashes its one script', () => {
    const html = renderSitePage(view);
    expect(html).toContain('<title>Intro &quot;x&quot; | Docs &lt;b&gt;</title>');
    expect(html).toContain('<a href="/sites/x/" aria-current="page">Guides</a>');
    expect(html).toContain('<span class="group">Reference</span>');
    expect(html).toContain('data-theme="dark"');
    expect(html).not.toContain('pink');
    expect(html).toContain('--primary:#123456');
    expect(html).not.toContain('noindex');
    expect(html).toContain(`<script>${THEME_SCRIPT}</script>`);
    expect(themeScriptHash()).toBe(`'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`);
    expect(renderSitePage({ ...view, noindex: true })).toContain('<meta name="robots" content="noindex">');
    expect(renderSitePage({ ...view, theme: { default: 'light', toggeable: false } })).not.toContain('<script>');
  });

  it('notices offer the sign-in link when there is one', () => {
    expect(renderNotice({ title: 'Sign-in required', message: 'm', loginUrl: 'https://l.example/?a=1&b=2' })).toContain('href="https://l.example/?a=1&amp;b=2"');
  });
});
