import { bareLinkEmbed, externalEmbed } from './embed';

describe('embeds', () => {
  const url = new URL('https://www.example.com/post/1');

  it('a bare link is the address on its host without www', () => {
    expect(bareLinkEmbed(url)).toEqual({ type: 'link', title: 'https://www.example.com/post/1', site: 'example.com' });
  });

  it('titles from oEmbed, then the page, then the address; site from the provider, then og:site_name, then the host', () => {
    const page = { title: 'Page title', siteName: 'Example', icon: 'https://www.example.com/favicon.ico' };
    expect(externalEmbed(url, page, { title: 'OEmbed title', provider_name: 'Provider' })).toEqual({
      type: 'link',
      title: 'OEmbed title',
      site: 'Provider',
      icon: 'https://www.example.com/favicon.ico',
    });
    expect(externalEmbed(url, page, null)).toMatchObject({ title: 'Page title', site: 'Example' });
    expect(externalEmbed(url, {}, { title: 42, provider_name: '  ' })).toEqual({ type: 'link', title: 'https://www.example.com/post/1', site: 'example.com' });
  });

  it('is rich only for an oEmbed rich or video answer with HTML', () => {
    expect(externalEmbed(url, null, { type: 'video', html: '<iframe src="https://x"></iframe>', title: 'Clip' })).toEqual({
      type: 'rich',
      title: 'Clip',
      site: 'example.com',
      html: '<iframe src="https://x"></iframe>',
    });
    expect(externalEmbed(url, null, { type: 'photo', html: '<img>' }).type).toBe('link');
    expect(externalEmbed(url, null, { type: 'rich', html: '' }).type).toBe('link');
  });

  it('clips long titles', () => {
    expect(externalEmbed(url, { title: 'x'.repeat(1000) }, null).title).toHaveLength(300);
  });
});
