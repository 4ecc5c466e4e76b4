import { getMetadataStorage } from 'type-graphql';
import type { GraphQLObjectType } from 'graphql';
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

/**
 * A plain property field of any object type resolves at once: no type-graphql middleware is
 * dispatched on every field (a global one wraps each in an async call, which tripled a
 * subscription event's CPU). The audit origin is set on the root fields only (src/graphql/build.ts).
 */
describe('object types without simple resolvers', () => {
  it.each([
    ['Notification', 'title', 'Hello'],
    ['InvestmentRequest', 'status', 'PENDING'],
    ['WithdrawalRequest', 'status', 'PENDING'],
  ])('%s.%s resolves synchronously', async (name, fieldName, value) => {
    const schema = await buildGatewaySchema();
    const field = (schema.getType(name) as GraphQLObjectType).getFields()[fieldName];
    const root = { [fieldName]: value };
    const info = { path: { prev: { key: 0 }, key: fieldName }, operation: { operation: 'subscription' } };
    expect(field.resolve ? field.resolve(root, {}, {} as never, info as never) : root[fieldName]).toBe(value);
  });
});
