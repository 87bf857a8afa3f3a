import { parseAppAddress } from './app-address';

describe('parseAppAddress', () => {
  const base = new URL('https://docs.example.com/base/app');
  const parse = (address: string) => parseAppAddress(new URL(address), base);

  it('reads collections, spaces, change requests and page paths under the app base', () => {
    expect(parse('https://docs.example.com/base/app/c/col1')).toEqual({ kind: 'collection', collectionId: 'col1' });
    expect(parse('https://docs.example.com/base/app/s/sp1')).toEqual({ kind: 'space', spaceId: 'sp1', pagePath: '' });
    expect(parse('https://docs.example.com/base/app/s/sp1/guides/install/')).toEqual({ kind: 'space', spaceId: 'sp1', pagePath: 'guides/install' });
    expect(parse('https://docs.example.com/base/app/s/sp1/~/changes/7')).toEqual({ kind: 'space', spaceId: 'sp1', changeRequest: '7', pagePath: '' });
    expect(parse('https://docs.example.com/base/app/s/sp1/~/changes/7/guides?x=1#heading')).toEqual({
      kind: 'space',
      spaceId: 'sp1',
      changeRequest: '7',
      pagePath: 'guides',
    });
  });

  it("reads GitBook's form with the organization first", () => {
    expect(parse('https://docs.example.com/base/app/o/org1/s/sp1/a')).toEqual({ kind: 'space', spaceId: 'sp1', organizationId: 'org1', pagePath: 'a' });
    expect(parse('https://docs.example.com/base/app/o/org1/c/col1')).toEqual({ kind: 'collection', collectionId: 'col1', organizationId: 'org1' });
  });

  it('decodes segments and refuses broken encoding', () => {
    expect(parse('https://docs.example.com/base/app/s/sp1/caf%C3%A9')).toMatchObject({ pagePath: 'café' });
    expect(parse('https://docs.example.com/base/app/s/sp1/%E0%A4%A')).toBeNull();
  });

  it('is null for other origins, paths outside the base, and addresses that name nothing', () => {
    for (const address of [
      'https://other.example.com/base/app/s/sp1',
      'http://docs.example.com/base/app/s/sp1',
      'https://docs.example.com/app/s/sp1',
      'https://docs.example.com/base/app',
      'https://docs.example.com/base/app/s',
      'https://docs.example.com/base/app/x/sp1',
      'https://docs.example.com/base/app/c/col1/extra',
      'https://docs.example.com/base/app/s/sp1/~/revisions/r1',
      'https://docs.example.com/base/app/s/sp1/~/changes',
    ]) {
      expect(parse(address)).toBeNull();
    }
  });
});
