import { applyCustomization, defaultCustomization, siteCustomization } from './customization';

describe('site customization', () => {
  it('completes sections stored before newer fields existed from the defaults, keeping what was stored', () => {
    const stored = { styling: { theme: 'bold', font: 'Roboto' }, pageActions: { externalAI: false, markdown: true, mcp: false }, header: { preset: 'none' } };
    const settings = siteCustomization({ title: 'Docs', customization: stored }) as Record<string, any>;
    expect(settings.title).toBe('Docs');
    expect(settings.styling.theme).toBe('bold');
    expect(settings.styling.font).toBe('Roboto');
    expect(settings.styling.codeTheme).toEqual((defaultCustomization().styling as Record<string, unknown>).codeTheme);
    expect(settings.pageActions).toMatchObject({ externalAI: false, items: ['markdown', 'external-ai'] });
    expect(settings.header).toEqual({ preset: 'none', links: [] });
    expect(settings.socialAccounts).toEqual([]);
  });

  it('replaces lists and values rather than merging them', () => {
    const settings = siteCustomization({ title: 'Docs', customization: { socialAccounts: [{ platform: 'x', handle: 'docs' }], pdf: 'off' } }) as Record<string, any>;
    expect(settings.socialAccounts).toEqual([{ platform: 'x', handle: 'docs' }]);
    expect(settings.pdf).toBe('off');
  });

  it('validates what it renders and lays the rest over the base', () => {
    expect(() => applyCustomization(defaultCustomization(), { styling: { theme: 'neon' } })).toThrow(/customization/);
    const applied = applyCustomization(defaultCustomization(), { styling: { theme: 'muted' } }) as Record<string, any>;
    expect(applied.styling.theme).toBe('muted');
    expect(applied.styling.codeTheme).toBeDefined();
  });
});
