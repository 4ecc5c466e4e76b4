import { IsEmail, IsNotEmpty, IsOptional, Length, Matches, MaxLength } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { User } from './user.type';
import { RequiredText } from './rules';

@ObjectType()
export class AuthPayload {
  @Field(() => User) user: User;
  @Field(() => String, { description: 'Short-lived JWT for the Authorization: Bearer header.' }) accessToken: string;
  @Field(() => String, { description: 'Opaque, single use: /auth/refresh rotates it.' }) refreshToken: string;
  @Field(() => String) tokenType: string;
  @Field(() => Int, { description: 'Access token lifetime in seconds.' }) expiresIn: number;
}

@ArgsType()
export class LoginArgs {
  @Field(() => String)
  @IsNotEmpty({ message: 'The email field is required.' })
  @IsEmail({}, { message: 'The email field must be a valid email address.' })
  email: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password field is required.' })
  password: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @MaxLength(255, { message: 'The device name field must not be greater than 255 characters.' })
  deviceName?: string | null;
}

export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,}$/;
export const PASSWORD_MESSAGE = 'The password field must be at least 8 characters and contain upper and lower case letters and a number.';

@InputType()
export class RegisterInput {
  @Field(() => String)
  @RequiredText('name', 255)
  name: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The email field is required.' })
  @IsEmail({}, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email: string;

  @Field(() => String)
  @Matches(PASSWORD_RULE, { message: PASSWORD_MESSAGE })
  password: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password confirmation field is required.' })
  passwordConfirmation: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Length(6, 32, { message: 'The phone field must be between 6 and 32 characters.' })
  phone?: string | null;
}

@ArgsType()
export class RefreshArgs {
  @Field(() => String)
  @IsNotEmpty({ message: 'The refresh token field is required.' })
  refreshToken: string;
}
