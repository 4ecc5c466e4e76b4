import { parse } from 'graphql';
import { byteBoundedApolloCache, documentBytes } from '../../src/graphql/document-cache';
import { byteBoundedLru, stringBytes } from '../../src/platform/bounded-cache';

describe('documentBytes', () => {
  it('counts the AST, every lexer token (comments too) and the source text', () => {
    const text = '{ units { id name } }';
    const plain = parse(text);
    expect(documentBytes(plain)).toBeGreaterThan(3 * JSON.stringify(plain).length + stringBytes(text));
    const comment = `# ${'a comment the AST does not keep '.repeat(10)}\n`;
    const commented = parse(comment + text);
    // Its text, and its one more token (128 bytes), on top of the longer locations in the AST.
    expect(documentBytes(commented) - documentBytes(plain)).toBeGreaterThanOrEqual(stringBytes(comment) + 128);
  });
});

describe('byte-bounded caches', () => {
  it("evict the least recently used entry past the bound, Apollo's as the generic one", async () => {
    // Each entry: a 1-character key (2 bytes), a 400-byte value and the LRU's bookkeeping: three fit in 2 KiB, four do not.
    const lru = byteBoundedLru<string>(2048, () => 400);
    const apollo = byteBoundedApolloCache<string>(2048, () => 400);
    for (const key of ['a', 'b', 'c', 'd']) {
      lru.set(key, key);
      await apollo.set(key, key);
    }
    expect([...lru.keys()].sort()).toEqual(['b', 'c', 'd']);
    expect(await Promise.all(['a', 'b', 'c', 'd'].map((key) => apollo.get(key)))).toEqual([undefined, 'b', 'c', 'd']);
  });
});
