import { readHtmlMetadata } from './html-metadata';

describe('readHtmlMetadata', () => {
  const page = new URL('https://example.com/blog/post');

  it('reads Open Graph, the title, the icon and the oEmbed link, resolving relative addresses', () => {
    const html = `<!doctype html><html><head>
      <TITLE>  Plain &amp; simple
      </TITLE>
      <meta property="og:title" content="Open Graph title">
      <meta property="og:site_name" content="Example Blog">
      <link rel="apple-touch-icon" href="/touch.png">
      <link rel="shortcut icon" href="favicon.ico">
      <link rel="alternate" type="application/json+oembed" href="/oembed?url=post">
      </head><body><title>not this</title></body></html>`;
    expect(readHtmlMetadata(html, page)).toEqual({
      title: 'Open Graph title',
      siteName: 'Example Blog',
      icon: 'https://example.com/blog/favicon.ico',
      oembedUrl: 'https://example.com/oembed?url=post',
    });
  });

  it('falls back to the Twitter title, then <title>, then nothing', () => {
    expect(readHtmlMetadata('<head><meta name="twitter:title" content="Tweet"><title>T</title></head>', page)).toEqual({ title: 'Tweet' });
    expect(readHtmlMetadata('<head><title>Plain &amp; simple</title></head>', page)).toEqual({ title: 'Plain & simple' });
    expect(readHtmlMetadata('<p>no head</p>', page)).toEqual({});
  });

  it('stops at the body and keeps only http(s) addresses', () => {
    const html = '<head><link rel="icon" href="javascript:alert(1)"></head><body><meta property="og:title" content="late"></body>';
    expect(readHtmlMetadata(html, page)).toEqual({});
  });
});
