import { IsNotEmpty, IsOptional, Matches, Min, ValidateBy, isEmail, type ValidationArguments } from 'class-validator';

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
