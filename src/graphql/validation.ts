import { getMetadataStorage, validateOrReject, type ValidatorOptions } from 'class-validator';
import { ArgumentValidationError, type ValidatorFn } from 'type-graphql';

/** type-graphql's own defaults for class-validator: absent properties are skipped, objects without rules pass. */
const OPTIONS: ValidatorOptions = { skipMissingProperties: true, forbidUnknownValues: false };

const storage = getMetadataStorage();
const lookUp = storage.getTargetValidationMetadatas.bind(storage);
const resolved = new WeakMap<object, Map<string, ReturnType<typeof lookUp>>>();

/**
 * class-validator finds a class's rules by testing every decorated class of the program for
 * inheritance, on every validation (typestack/class-validator#2686, open): 1.5 % of a list
 * request's CPU here. A class's rules, its own and its ancestors', are all registered when it is
 * declared, before anything can be validated against it, so each lookup is kept per class and
 * options. Keyed weakly by the class: the input and args classes of the schema, not client input.
 */
storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
  let byOptions = resolved.get(target);
  if (!byOptions) resolved.set(target, (byOptions = new Map()));
  const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${(groups ?? []).join('\u0000')}`;
  let rules = byOptions.get(key);
  if (!rules) byOptions.set(key, (rules = lookUp(target, schema, always, strictGroups, groups)));
  return rules;
};

/** Whether instances of a class have any rule to check (always: a rule of any group counts). */
const hasRules = (value: object) => storage.getTargetValidationMetadatas(value.constructor, '', true, false).length > 0;

const validatable = (value: unknown): value is object => value !== null && typeof value === 'object' && hasRules(value);

/**
 * type-graphql's argument validation as it does it (class-validator on every input and args object,
 * a list's items one by one, failures as one ArgumentValidationError), given to it as `validateFn`
 * because its own imports class-validator anew for every argument of every call: a `require` through
 * Node's module loader each time (MichalLytek/type-graphql#982), ~1 % of a list request's CPU. An
 * object whose class has no rules is not handed to class-validator (with forbidUnknownValues off it
 * passes there anyway).
 */
export const validateArguments: ValidatorFn = async (value) => {
  const objects = (Array.isArray(value) ? value : [value]).filter(validatable);
  try {
    await Promise.all(objects.map((o) => validateOrReject(o, OPTIONS)));
  } catch (err) {
    throw new ArgumentValidationError(err as ConstructorParameters<typeof ArgumentValidationError>[0]);
  }
};
