import { BadRequestException } from '@nestjs/common';
import { jsonNestingDepth, jsonShape, rejectOversizedJson } from './json-depth';

const depth = (text: string) => jsonNestingDepth(Buffer.from(text));

describe('JSON nesting depth', () => {
  it('counts nested objects and arrays', () => {
    expect(depth('1')).toBe(0);
    expect(depth('{}')).toBe(1);
    expect(depth('{"a": [1, {"b": []}], "c": {}}')).toBe(4);
    expect(depth('['.repeat(500) + ']'.repeat(500))).toBe(500);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depth('{"a": "[[[{{{"}')).toBe(1);
    expect(depth('{"a": "say \\"[[[\\" and \\\\", "b": [1]}')).toBe(2);
  });

  it('refuses a body nested deeper than the limit with a 400', () => {
    const verify = rejectOversizedJson(3);
    expect(() => verify(null, null, Buffer.from('{"a": [[1]]}'))).not.toThrow();
    expect(() => verify(null, null, Buffer.from('{"a": [[[1]]]}'))).toThrow(BadRequestException);
  });

  it('counts properties at every depth, not colons inside strings', () => {
    expect(jsonShape(Buffer.from('{"a": {"b": 1, "c": ["d:e", {"f": null}]}}')).keys).toBe(4);
  });

  it('refuses a body with more properties than the limit with a 400', () => {
    const verify = rejectOversizedJson(128, 3);
    expect(() => verify(null, null, Buffer.from('{"a": 1, "b": {"c": 1}}'))).not.toThrow();
    expect(() => verify(null, null, Buffer.from('{"a": 1, "b": {"c": 1, "d": 2}}'))).toThrow('Request body has 4 properties; at most 3 are accepted');
  });
});
