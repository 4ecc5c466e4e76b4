import { IsNotEmpty, IsOptional } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { AuthResult, RegisterData } from '../services/auth.service';
import { User } from './user.type';
import { Email, NewPassword, PASSWORD_MAX, PasswordConfirmation, RequiredText, Text } from './rules';

@ObjectType({ description: 'The answer of login, register and refreshToken: the user and a fresh token pair.' })
export class AuthPayload implements AuthResult {
  @Field(() => User, { description: 'The user the tokens belong to.' }) user: User;
  @Field(() => String, { description: 'Short-lived JWT for the Authorization: Bearer header.' }) accessToken: string;
  @Field(() => String, { description: 'Opaque, single use: /auth/refresh rotates it.' }) refreshToken: string;
  @Field(() => String, { description: 'Always "Bearer".' }) tokenType: 'Bearer';
  @Field(() => Int, { description: 'Access token lifetime in seconds.' }) expiresIn: number;
}

@ArgsType()
export class LoginArgs {
  @Field(() => String, { description: 'The account email (case-insensitive).' })
  @IsNotEmpty({ message: 'The email field is required.' })
  @Email('email')
  email: string;

  @Field(() => String, {
    description: 'The account password. Wrong credentials are BAD_USER_INPUT on email; repeated failures are RATE_LIMITED (docs/api.md, Limits).',
  })
  @IsNotEmpty({ message: 'The password field is required.' })
  @Text('password', PASSWORD_MAX)
  password: string;

  @Field(() => String, { nullable: true, description: 'A label for the session, e.g. "iPhone 15" (at most 255 characters).' })
  @IsOptional()
  @Text('device name', 255)
  deviceName?: string | null;
}

@InputType({ description: 'A new investor account; the email must not be registered yet.' })
export class RegisterInput implements RegisterData {
  @Field(() => String, { description: 'Display name, 1..255 characters.' })
  @RequiredText('name', 255)
  name: string;

  @Field(() => String, { description: 'Login email, unique (a registered one is BAD_USER_INPUT on this field).' })
  @IsNotEmpty({ message: 'The email field is required.' })
  @Email('email')
  email: string;

  @Field(() => String, { description: '8..128 characters with upper and lower case letters and a digit.' })
  @NewPassword()
  password: string;

  @Field(() => String, { description: 'The password again; must equal password.' })
  @PasswordConfirmation()
  passwordConfirmation: string;

  @Field(() => String, { nullable: true, description: 'Phone number, 6..32 characters.' })
  @IsOptional()
  @Text('phone', 32, { min: 6 })
  phone?: string | null;
}

@ArgsType()
export class RefreshArgs {
  @Field(() => String, { description: 'The refresh token of the last login or refresh; it can be used once.' })
  @IsNotEmpty({ message: 'The refresh token field is required.' })
  @Text('refresh token', 255)
  refreshToken: string;
}
