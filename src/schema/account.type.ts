import { IsDefined, IsEmail, IsNotEmpty, IsOptional, Length, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ArgsType, Field, InputType } from 'type-graphql';
import { PASSWORD_MESSAGE, PASSWORD_RULE } from './auth.type';

@ArgsType()
export class ForgotPasswordArgs {
  @Field(() => String)
  @IsNotEmpty({ message: 'The email field is required.' })
  @IsEmail({}, { message: 'The email field must be a valid email address.' })
  email: string;
}

@InputType()
export class ResetPasswordInput {
  @Field(() => String)
  @IsNotEmpty({ message: 'The email field is required.' })
  @IsEmail({}, { message: 'The email field must be a valid email address.' })
  email: string;

  @Field(() => String, { description: 'The token from the reset message.' })
  @IsNotEmpty({ message: 'The token field is required.' })
  token: string;

  @Field(() => String)
  @Matches(PASSWORD_RULE, { message: PASSWORD_MESSAGE })
  password: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password confirmation field is required.' })
  passwordConfirmation: string;
}

@InputType()
export class ChangePasswordInput {
  @Field(() => String)
  @IsNotEmpty({ message: 'The current password field is required.' })
  currentPassword: string;

  @Field(() => String)
  @Matches(PASSWORD_RULE, { message: PASSWORD_MESSAGE })
  password: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password confirmation field is required.' })
  passwordConfirmation: string;
}

@InputType({ description: 'Only the fields given change; phone null clears it.' })
export class UpdateProfileInput {
  @Field(() => String, { nullable: true })
  // Present means required (Laravel's `sometimes|required`): null or blank is refused, absent is kept.
  // IsDefined, as type-graphql skips every other rule for null values.
  @ValidateIf((_input, value) => value !== undefined)
  @IsDefined({ message: 'The name field is required.' })
  @Matches(/\S/, { message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(6, 32, { message: 'The phone field must be between 6 and 32 characters.' })
  phone?: string | null;
}

@ArgsType()
export class DeleteAccountArgs {
  @Field(() => String, { description: 'The current password, to confirm.' })
  @IsNotEmpty({ message: 'The password field is required.' })
  password: string;
}
