import { IsNotEmpty, IsOptional, Matches, Min, ValidateBy, isEmail, type ValidationArguments } from 'class-validator';
import { Decimal, dec, type DecimalInput } from '../domain/money';
import { MAX_MONEY, isMoneyAmount } from '../domain/money-rules';

export interface TextOptions {
  /** Fewest characters (Laravel's `between:min,max` message then); default none. */
  min?: number;
  /** Validate each item of a list of text. */
  each?: boolean;
}

/** The name of the text rule in class-validator's metadata (test/strict-input.test.ts checks every text input has it). */
export const TEXT_RULE = 'text';

/** Characters as Laravel's `max` counts them (code points, so an emoji is one). */
function characters(value: string, max: number): number {
  // Each code point is one or two UTF-16 units: no need to count a string far longer than the bound.
  return value.length > 2 * max ? value.length : [...value].length;
}

/** With the `u` flag a surrogate pair is one code point, so only lone surrogates match. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function problem(value: string, max: number, min = 0): string | undefined {
  // A lone UTF-16 surrogate has no UTF-8 encoding; PostgreSQL refuses NUL in text (22021).
  if (LONE_SURROGATE.test(value)) return 'must be valid UTF-8 text.';
  if (value.includes('\u0000')) return 'must not contain NUL characters.';
  const n = characters(value, max);
  if (min > 0 && (n < min || n > max)) return `must be between ${min} and ${max} characters.`;
  if (n > max) return `must not be greater than ${max} characters.`;
  return undefined;
}

/**
 * Every text input carries this rule (contract §1): valid UTF-8 without NUL, at most `max`
 * characters (and at least `min` when given). Values that are not strings are left to the
 * GraphQL types; null and absent values to the field's required/optional rules.
 */
export function Text(label: string, max: number, options: TextOptions = {}): PropertyDecorator {
  const subject = options.each ? `Each ${label}` : `The ${label} field`;
  return ValidateBy(
    {
      name: TEXT_RULE,
      constraints: [max, options.min],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || problem(value, max, options.min) === undefined,
        defaultMessage: (args?: ValidationArguments) => `${subject} ${problem(String(args?.value), max, options.min)}`,
      },
    },
    { each: options.each },
  );
}

/** A required text field of at most `max` characters, with Laravel's messages for it. */
export function RequiredText(label: string, max: number, options: TextOptions = {}): PropertyDecorator {
  return (target, key) => {
    IsNotEmpty({ message: `The ${label} field is required.` })(target, key);
    Text(label, max, options)(target, key);
  };
}

/**
 * An email address of at most 255 characters. The address check runs only on valid text: the
 * validator's own throws on a lone surrogate (the text rule reports that one).
 */
export function Email(label: string): PropertyDecorator {
  return (target, key) => {
    Text(label, 255)(target, key);
    ValidateBy({
      name: 'email',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || LONE_SURROGATE.test(value) || isEmail(value),
        defaultMessage: () => `The ${label} field must be a valid email address.`,
      },
    })(target, key);
  };
}

/** Passwords: bounded before they reach the hash (contract §1: 8..128 for new ones). */
export const PASSWORD_MAX = 128;
const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/;

/** A new password (register, reset, change): 8..128 characters with upper and lower case letters and a digit. */
export function NewPassword(): PropertyDecorator {
  return (target, key) => {
    Text('password', PASSWORD_MAX)(target, key);
    Matches(PASSWORD_RULE, {
      message: 'The password field must be at least 8 characters and contain upper and lower case letters and a number.',
    })(target, key);
  };
}

/** The new password typed again; that it equals the password is the service's rule. */
export function PasswordConfirmation(): PropertyDecorator {
  return RequiredText('password confirmation', PASSWORD_MAX);
}

/** A required id argument or input field: an integer of at least 1, with Laravel's message. */
export function Id(label: string): PropertyDecorator {
  return Min(1, { message: `The ${label} field must be at least 1.` });
}

/** An optional id (filters): absent or null is fine, otherwise as Id. */
export function OptionalId(label: string): PropertyDecorator {
  return (target, key) => {
    Id(label)(target, key);
    IsOptional()(target, key);
  };
}

/** The name of the Decimal rules in class-validator's metadata (test/strict-input.test.ts checks every Decimal input has one). */
export const DECIMAL_RULE = 'decimal';

/**
 * A rule on a Decimal input: `problem` says what the value must be, or nothing when it passes. Values
 * that are not Decimals are left to the Decimal scalar, null and absent ones to the field's
 * nullability (validation skips missing properties).
 */
function decimalRule(label: string, problem: (value: Decimal) => string | undefined): PropertyDecorator {
  return ValidateBy({
    name: DECIMAL_RULE,
    validator: {
      validate: (value: unknown) => !Decimal.isDecimal(value) || problem(dec(value)) === undefined,
      defaultMessage: (args?: ValidationArguments) => `The ${label} field ${problem(dec(args?.value as DecimalInput))}`,
    },
  });
}

/** A DecimalRange's bounds: a lower one (`min`, or `above` exclusive), an upper one (`max`, or `below` exclusive), or both; `places` at most. */
export interface DecimalBounds {
  min?: DecimalInput;
  above?: DecimalInput;
  max?: DecimalInput;
  below?: DecimalInput;
  places?: number;
}

/** The bounds in Laravel's words: "between 0 and 100", "greater than 0 and at most 100", "at least 0". */
function boundsText({ min, above, max, below, places }: DecimalBounds): string {
  const text = (v: DecimalInput) => dec(v).toFixed();
  const lower = min !== undefined ? `at least ${text(min)}` : above !== undefined ? `greater than ${text(above)}` : undefined;
  const upper = max !== undefined ? `at most ${text(max)}` : below !== undefined ? `less than ${text(below)}` : undefined;
  const range = min !== undefined && max !== undefined ? `between ${text(min)} and ${text(max)}` : [lower, upper].filter(Boolean).join(' and ');
  return `must be ${range}${places === undefined ? '' : `, with at most ${places} decimal places`}.`;
}

function outside({ min, above, max, below, places }: DecimalBounds, v: Decimal): boolean {
  return (
    (min !== undefined && v.lt(dec(min))) ||
    (above !== undefined && v.lte(dec(above))) ||
    (max !== undefined && v.gt(dec(max))) ||
    (below !== undefined && v.gte(dec(below))) ||
    (places !== undefined && v.decimalPlaces() > places)
  );
}

/** A Decimal within bounds, one message naming them all (e.g. a fee rate: at least 0, less than 1, 6 places). */
export function DecimalRange(label: string, bounds: DecimalBounds): PropertyDecorator {
  const message = boundsText(bounds);
  return decimalRule(label, (v) => (outside(bounds, v) ? message : undefined));
}

/** At most `places` decimal places, any value (Laravel's `decimal:0,n`); the range is the service's. */
export function DecimalPlaces(label: string, places: number): PropertyDecorator {
  return decimalRule(label, (v) => (v.decimalPlaces() > places ? `must have 0-${places} decimal places.` : undefined));
}

/** An amount of money (isMoneyAmount: above 0, whole cents, at most MAX_MONEY, a bound the message leaves out). */
export function Money(label: string): PropertyDecorator {
  return decimalRule(label, (v) => (isMoneyAmount(v) ? undefined : 'must be greater than 0, with at most 2 decimal places.'));
}

/** The first amount past MAX_MONEY, as the app configuration's message names it. */
const PAST_MAX_MONEY = MAX_MONEY.plus('0.01');

/**
 * A platform investment limit: Laravel's `gt:0`, `decimal:0,2` and `lt` rules, each with its own
 * message, the first that fails reported (as the app configuration has always answered).
 */
export function InvestmentLimit(label: string): PropertyDecorator {
  return decimalRule(label, (v) => {
    if (v.lte(0)) return 'must be greater than 0.';
    if (v.decimalPlaces() > 2) return 'must have at most 2 decimal places.';
    if (v.gte(PAST_MAX_MONEY)) return `must be less than ${PAST_MAX_MONEY.toFixed()}.`;
    return undefined;
  });
}

/**
 * The upper end of a range given in one input: not below the Decimal `field` (Laravel's `gte:field`).
 * Only when both are there and this one is not negative: a negative end is its range rule's to report.
 */
export function AtLeastField(label: string, field: string, fieldLabel: string): PropertyDecorator {
  return ValidateBy({
    name: 'atLeastField',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const from: unknown = (args?.object as Record<string, unknown> | undefined)?.[field];
        return !Decimal.isDecimal(value) || !Decimal.isDecimal(from) || dec(value).lt(0) || dec(value).gte(dec(from));
      },
      defaultMessage: () => `The ${label} field must be greater than or equal to ${fieldLabel}.`,
    },
  });
}
