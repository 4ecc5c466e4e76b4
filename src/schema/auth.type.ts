import { IsNotEmpty, IsOptional, Matches } from 'class-validator';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { User } from './user.type';
import { Email, PASSWORD_MAX, RequiredText, Text } from './rules';

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
  @Email('email')
  email: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password field is required.' })
  @Text('password', PASSWORD_MAX)
  password: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Text('device name', 255)
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
  @Email('email')
  email: string;

  @Field(() => String)
  @Matches(PASSWORD_RULE, { message: PASSWORD_MESSAGE })
  @Text('password', PASSWORD_MAX)
  password: string;

  @Field(() => String)
  @IsNotEmpty({ message: 'The password confirmation field is required.' })
  @Text('password confirmation', PASSWORD_MAX)
  passwordConfirmation: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @Text('phone', 32, { min: 6 })
  phone?: string | null;
}

@ArgsType()
export class RefreshArgs {
  @Field(() => String)
  @IsNotEmpty({ message: 'The refresh token field is required.' })
  @Text('refresh token', 255)
  refreshToken: string;
}
