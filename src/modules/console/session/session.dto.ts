import { ApiProperty } from '@nestjs/swagger';
import { IsString, MinLength } from 'class-validator';

const SEND = 'Send {"login": "...", "password": "..."}';

/** Body of POST /api/console/session. */
export class PasswordSignIn {
  @ApiProperty({ minLength: 1, description: 'Username or email' })
  @IsString({ message: SEND })
  @MinLength(1, { message: SEND })
  login!: string;

  @ApiProperty()
  @IsString({ message: SEND })
  password!: string;
}
