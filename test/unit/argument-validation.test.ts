import { getMetadataStorage, MetadataStorage } from 'class-validator';
import { ArgumentValidationError } from 'type-graphql';
import { buildGatewaySchema } from '../../src/graphql/build';
import { validateArguments } from '../../src/graphql/validation';
import { PageArgs } from '../../src/schema/pagination.type';
import { RegisterDeviceTokenInput } from '../../src/schema/notification.type';

// Every input and args class of the schema declared, as the gateway runs: no database, no HTTP.
beforeAll(async () => {
  await buildGatewaySchema();
});

/** As type-graphql calls it for an argument; neither the argument's type nor the resolver data is read. */
const validate = (value: object) => validateArguments(value, Object, {} as never);

/** class-validator's own lookup, unkept: the method of its class, not the storage's kept one. */
const uncached = MetadataStorage.prototype.getTargetValidationMetadatas;

describe('argument validation', () => {
  it("keeps each class's rules as class-validator finds them, for every decorated class and their subclasses, under each option", () => {
    const storage = getMetadataStorage();
    const targets = [...(storage as unknown as { validationMetadatas: Map<abstract new () => object, unknown[]> }).validationMetadatas.keys()];
    expect(targets.length).toBeGreaterThan(20);
    // A subclass declaring no rule of its own inherits its parent's.
    const subclasses = targets.map((t) => class extends (t as new () => object) {});
    for (const target of [...targets, ...subclasses]) {
      for (const [always, strictGroups, groups] of [
        [false, false, undefined],
        [true, false, undefined],
        [false, true, ['admin']],
      ] as const) {
        const expected = uncached.call(storage, target, '', always, strictGroups, groups ? [...groups] : undefined);
        // Twice: the first lookup is kept, the second answered from it.
        expect(storage.getTargetValidationMetadatas(target, '', always, strictGroups, groups ? [...groups] : undefined)).toEqual(expected);
        expect(storage.getTargetValidationMetadatas(target, '', always, strictGroups, groups ? [...groups] : undefined)).toEqual(expected);
      }
    }
  });

  it('still refuses what the rules refuse, and passes objects of classes with no rules', async () => {
    const device = (token: string) => Object.assign(new RegisterDeviceTokenInput(), { token, platform: 'ANDROID' });
    const refused = validate(device(''));
    await expect(refused).rejects.toBeInstanceOf(ArgumentValidationError);
    await expect(refused).rejects.toMatchObject({ extensions: { validationErrors: [{ property: 'token' }] } });
    await expect(validate([device('fcm-token'), device('')])).rejects.toBeInstanceOf(ArgumentValidationError);
    await expect(validate([device('fcm-token')])).resolves.toBeUndefined();
    // PageArgs declares no class-validator rule (its bounds are the services'): nothing to check.
    await expect(validate(Object.assign(new PageArgs(), { page: 0, perPage: 1000 }))).resolves.toBeUndefined();
  });
});
