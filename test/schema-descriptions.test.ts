import { isEnumType, isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from 'graphql';
import { buildGatewaySchema } from '../src/graphql/build';
import { isIdempotentField } from '../src/schema/idempotent';

/**
 * Every schema coordinate (`Type`, `Type.field`, `Type.field(arg:)`, `Input.field`, `Enum.VALUE`) that
 * has no description. GraphQL's own scalars and introspection types are described by the spec.
 */
function undescribed(schema: GraphQLSchema): string[] {
  const missing: string[] = [];
  const check = (coordinate: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(coordinate);
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type)) continue;
    // The root types are named by the spec; their fields carry the descriptions.
    if (![schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type as never)) check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.description);
        for (const arg of field.args) check(`${type.name}.${field.name}(${arg.name}:)`, arg.description);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return missing;
}

describe('schema descriptions', () => {
  it('describe every type, field, argument, input field and enum value', async () => {
    const missing = undescribed(await buildGatewaySchema());
    // The message lists every gap, so one run shows all there is to write.
    expect({ count: missing.length, missing }).toEqual({ count: 0, missing: [] });
  });

  it('tell exactly the idempotent mutations about the Idempotency-Key header', async () => {
    const mutations = Object.values((await buildGatewaySchema()).getMutationType()!.getFields());
    const told = mutations.filter((f) => f.description?.includes('Idempotency-Key')).map((f) => f.name);
    expect(told).toEqual(mutations.filter(isIdempotentField).map((f) => f.name));
    expect(told).toEqual(expect.arrayContaining(['createInvestmentRequest', 'createWithdrawalRequest', 'markPayoutPaid']));
  });
});

describe('deprecations', () => {
  /** Every deprecated field, argument, input field and enum value, with its reason. */
  function deprecated(schema: GraphQLSchema): [string, string][] {
    const found: [string, string][] = [];
    const note = (coordinate: string, reason: string | null | undefined) => reason != null && found.push([coordinate, reason]);
    for (const type of Object.values(schema.getTypeMap())) {
      if (isIntrospectionType(type)) continue;
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          note(`${type.name}.${field.name}`, field.deprecationReason);
          for (const arg of field.args) note(`${type.name}.${field.name}(${arg.name}:)`, arg.deprecationReason);
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) note(`${type.name}.${field.name}`, field.deprecationReason);
      } else if (isEnumType(type)) {
        for (const value of type.getValues()) note(`${type.name}.${value.name}`, value.deprecationReason);
      }
    }
    return found;
  }

  it('name the replacement and the earliest release that may remove them (docs/api.md, "Schema evolution")', async () => {
    const reasons = deprecated(await buildGatewaySchema());
    expect(reasons.length).toBeGreaterThan(0);
    const vague = reasons.filter(([, reason]) => !/^Use \S.*Removal no earlier than \d+\.\d+\.\d+\.$/.test(reason));
    expect(vague).toEqual([]);
  });
});
