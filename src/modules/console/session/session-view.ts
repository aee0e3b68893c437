import { ApiProperty } from '@nestjs/swagger';
import { SESSION_AUTH_METHODS } from '../../sessions/oauth-session.entity';

/** The signed-in account, as the console shows it. */
export class ConsoleUserView {
  @ApiProperty({ description: 'Decimal text of the numeric user id' }) id!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'May be empty' }) nickname!: string;
}

/** Answer of the session routes (sign-in with a password or a passkey, GET /session). */
export class ConsoleSessionView {
  @ApiProperty({ type: ConsoleUserView }) user!: ConsoleUserView;
  @ApiProperty({ enum: SESSION_AUTH_METHODS }) authMethod!: string;
  @ApiProperty({ format: 'date-time', description: 'When this session signed in' })
  signedInAt!: string;
  @ApiProperty({
    description: 'Send as the X-CSRF-Token header on every POST, PUT, PATCH and DELETE',
  })
  csrfToken!: string;
}
