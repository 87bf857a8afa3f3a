import { MASKED_HEADER_VALUE, assertMcpHeaders, assertMcpServerUrl, assertMcpTransport } from './site-mcp-server';

describe('Site MCP server settings', () => {
  it('takes headers a configuration may set, and refuses the others', () => {
    expect(assertMcpHeaders({ Authorization: 'Bearer x', 'X-Team': 'docs' })).toEqual({ Authorization: 'Bearer x', 'X-Team': 'docs' });
    for (const bad of [{ Host: 'a' }, { 'Content-Length': '1' }, { 'X A': 'b' }, { 'X-A': '' }, { 'X-A': 'a\nb' }, { 'X-A': 5 }, { 'x-a': '1', 'X-A': '2' }]) {
      expect(() => assertMcpHeaders(bad)).toThrow(/headers/);
    }
    expect(() => assertMcpHeaders(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-${i}`, 'v'])))).toThrow(/at most 20/);
  });

  it('keeps a stored value when the mask comes back, and takes the mask literally when nothing is stored', () => {
    expect(assertMcpHeaders({ Authorization: MASKED_HEADER_VALUE, 'X-New': 'n' }, { Authorization: 'Bearer secret', 'X-Old': 'o' })).toEqual({ Authorization: 'Bearer secret', 'X-New': 'n' });
    expect(assertMcpHeaders({ Authorization: MASKED_HEADER_VALUE })).toEqual({ Authorization: MASKED_HEADER_VALUE });
  });

  it('takes an http(s) address without credentials and a known transport', () => {
    expect(assertMcpServerUrl('https://mcp.example.com/sse')).toBe('https://mcp.example.com/sse');
    expect(() => assertMcpServerUrl('https://me:pw@mcp.example.com')).toThrow(/credentials in headers/);
    expect(() => assertMcpServerUrl('file:///etc/passwd')).toThrow(/url/);
    expect(assertMcpTransport('http')).toBe('http');
    expect(() => assertMcpTransport('stdio')).toThrow(/transport/);
  });
});
