import fc from 'fast-check';
import { jsonDepth } from '../../src/http/json-body';

/** The nesting of a parsed value, the obvious (recursive) way: the reference for the scanner. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('jsonDepth (src/http/json-body.ts)', () => {
  it('agrees with the parsed value for any JSON text, brackets and escapes inside strings included', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'é') });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), fc.array(tie('value')), fc.dictionary(text, tie('value'))),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const serialized = JSON.stringify(value);
        expect(jsonDepth(serialized)).toBe(depthOf(value));
        expect(jsonDepth(Buffer.from(serialized))).toBe(depthOf(value));
      }),
      { seed: 22, numRuns: 500 },
    );
  });

  it('scans 100 000 levels in one loop', () => {
    expect(jsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });
});
