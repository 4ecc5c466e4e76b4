import { IsNotEmpty, MaxLength } from 'class-validator';

/** A required text field of at most `max` characters, with Laravel's two messages for it. */
export function RequiredText(label: string, max: number): PropertyDecorator {
  return (target, key) => {
    IsNotEmpty({ message: `The ${label} field is required.` })(target, key);
    MaxLength(max, { message: `The ${label} field must not be greater than ${max} characters.` })(target, key);
  };
}
