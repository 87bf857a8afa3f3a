import { BadRequestException } from '@nestjs/common';
import { jsonNestingDepth, rejectDeeplyNestedJson } from './json-depth';

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
    const verify = rejectDeeplyNestedJson(3);
    expect(() => verify(null, null, Buffer.from('{"a": [[1]]}'))).not.toThrow();
    expect(() => verify(null, null, Buffer.from('{"a": [[[1]]]}'))).toThrow(BadRequestException);
  });
});
