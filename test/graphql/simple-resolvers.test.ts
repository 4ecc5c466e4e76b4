import { getMetadataStorage } from 'type-graphql';
import { buildGatewaySchema } from '../../src/graphql/build';

/**
 * type-graphql's `simpleResolvers` gives a type's fields graphql's default resolver: no wrapper per
 * field and item, and so no @Authorized or @UseMiddleware either. A field declaring one on such a
 * type would silently not apply it; this keeps every such field free of them.
 */
describe('object types with simple resolvers', () => {
  it('declare no roles and no middlewares on any of their fields', async () => {
    await buildGatewaySchema();
    const simple = getMetadataStorage().objectTypes.filter((t) => t.simpleResolvers);
    expect(simple.map((t) => t.name)).toEqual(expect.arrayContaining(['Distribution', 'PageInfo']));
    const guarded = simple.flatMap((t) =>
      (t.fields ?? []).filter((f) => f.simple !== false && (f.roles || f.middlewares?.length)).map((f) => `${t.name}.${f.name}`),
    );
    expect(guarded).toEqual([]);
  });
});
