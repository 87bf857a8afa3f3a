import { contentKitHtml } from './contentkit-html';
import { pageCsp } from './page-csp';

const block = (...children: unknown[]) => ({ type: 'element', state: { n: 1 }, props: {}, element: { type: 'block', children } });

describe('contentKitHtml', () => {
  it('writes text, markdown, stacks and code as escaped HTML, never the answer as markup', () => {
    const html = contentKitHtml(block({ type: 'vstack', children: [{ type: 'text', style: 'bold', children: '<b>hi</b>' }, { type: 'markdown', content: '**x** <script>alert(1)</script>' }, { type: 'codeblock', content: '<img src=x onerror=alert(1)>' }] }), { index: 0, frameHosts: [] });
    expect(html).toContain('<strong>&lt;b&gt;hi&lt;/b&gt;</strong>');
    expect(html).toContain('<strong>x</strong>');
    expect(html).not.toMatch(/<script|<img[^>]*onerror/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it("drops links and images that are not http(s), and frames only the integration's declared hosts, sandboxed", () => {
    const html = contentKitHtml(
      block(
        { type: 'text', children: [{ type: 'link', target: { url: 'javascript:alert(1)' }, children: ['bad'] }, { type: 'link', target: { url: 'https://ok.example/a' }, children: ['good'] }] },
        { type: 'image', source: { url: 'data:image/png;base64,AAAA' }, aspectRatio: 1 },
        { type: 'webframe', source: { url: 'https://frames.example.com/w' } },
        { type: 'webframe', source: { url: 'https://evil.example.net/w' } },
      ),
      { index: 0, frameHosts: ['frames.example.com'] },
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="https://ok.example/a" rel="noopener nofollow ugc" target="_blank">good</a>');
    expect(html).not.toContain('data:image');
    expect(html).toContain('<iframe src="https://frames.example.com/w" sandbox="allow-scripts allow-popups allow-forms"');
    expect(html).not.toContain('evil.example.net');
    expect(html).toContain('This content cannot be shown here.');
  });

  it("makes a button a GET form carrying the block's index, state and action; built-in actions stay disabled", () => {
    const html = contentKitHtml(block({ type: 'button', label: 'Go', onPress: { action: 'toggle', extra: '"><x>' } }, { type: 'button', label: 'Open', onPress: { action: '@ui.url.open', url: 'https://x' } }), { index: 2, frameHosts: [] });
    expect(html).toContain('<form method="get" class="ck-form"><input type="hidden" name="ck" value="2" />');
    expect(html).toContain('name="ck-state" value="{&quot;n&quot;:1}"');
    expect(html).toContain('name="ck-action" value="{&quot;action&quot;:&quot;toggle&quot;,&quot;extra&quot;:&quot;\\&quot;&gt;&lt;x&gt;&quot;}"');
    expect(html).toContain('<button type="button" class="ck-button" disabled>Open</button>');
    expect(contentKitHtml({ type: 'complete' }, { index: 0, frameHosts: [] })).toBe('');
  });
});

describe('pageCsp', () => {
  it("adds frame hosts and the scripts' directives to the base, keeping the rest", () => {
    const base = "default-src 'none'; script-src 'sha256-x'; connect-src 'self'";
    expect(pageCsp(base, { frameHosts: ['f.example'], scriptPolicies: ['script-src https://s.example; img-src https://i.example'] })).toBe(
      "default-src 'none'; script-src 'sha256-x' https://s.example; connect-src 'self'; frame-src https://f.example; img-src https://i.example",
    );
    expect(pageCsp(base, {})).toBe(base);
  });
});
