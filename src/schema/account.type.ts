import { IsDefined, IsNotEmpty, IsOptional, Matches, ValidateIf } from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { Email, NewPassword, PASSWORD_MAX, PasswordConfirmation, Text } from './rules';
import type { ChangePasswordData, ResetPasswordData, UpdateProfileData } from '../services/account.service';

@ArgsType()
export class ForgotPasswordArgs {
  @Field(() => String, { description: 'The account email the reset token is sent to (at most 255 characters).' })
  @IsNotEmpty({ message: 'The email field is required.' })
  @Email('email')
  email: string;
}

@InputType({ description: 'A password reset with the token sent by forgotPassword.' })
export class ResetPasswordInput implements ResetPasswordData {
  @Field(() => String, { description: 'The account email the reset token was sent to.' })
  @IsNotEmpty({ message: 'The email field is required.' })
  @Email('email')
  email: string;

  @Field(() => String, { description: 'The token from the reset message.' })
  @IsNotEmpty({ message: 'The token field is required.' })
  @Text('token', 255)
  token: string;

  @Field(() => String, { description: 'The new password: 8..128 characters with upper and lower case letters and a digit.' })
  @NewPassword()
  password: string;

  @Field(() => String, { description: 'The new password again; must equal password.' })
  @PasswordConfirmation()
  passwordConfirmation: string;
}

@InputType({ description: 'A new password for the authenticated user, confirmed with the current one.' })
export class ChangePasswordInput implements ChangePasswordData {
  @Field(() => String, { description: 'The password in use now; a wrong one is BAD_USER_INPUT on this field.' })
  @IsNotEmpty({ message: 'The current password field is required.' })
  @Text('current password', PASSWORD_MAX)
  currentPassword: string;

  @Field(() => String, { description: 'The new password: 8..128 characters with upper and lower case letters and a digit.' })
  @NewPassword()
  password: string;

  @Field(() => String, { description: 'The new password again; must equal password.' })
  @PasswordConfirmation()
  passwordConfirmation: string;
}

@InputType({ description: 'Only the fields given change; phone null clears it.' })
export class UpdateProfileInput implements UpdateProfileData {
  @Field(() => String, { nullable: true, description: 'Display name, 1..255 characters; absent keeps it, null or blank is refused.' })
  // Present means required (Laravel's `sometimes|required`): null or blank is refused, absent is kept.
  // IsDefined, as type-graphql skips every other rule for null values.
  @ValidateIf((_input, value) => value !== undefined)
  @IsDefined({ message: 'The name field is required.' })
  @Matches(/\S/, { message: 'The name field is required.' })
  @Text('name', 255)
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'Phone number, 6..32 characters; null clears it.' })
  @IsOptional()
  @Text('phone', 32, { min: 6 })
  phone?: string | null;
}

@ArgsType()
export class DeleteAccountArgs {
  @Field(() => String, { description: 'The current password, to confirm.' })
  @IsNotEmpty({ message: 'The password field is required.' })
  @Text('password', PASSWORD_MAX)
  password: string;
}
