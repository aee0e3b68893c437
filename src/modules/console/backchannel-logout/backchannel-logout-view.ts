import { ApiProperty } from '@nestjs/swagger';
import { BACKCHANNEL_STATUSES } from '../../oauth/backchannel-logout/backchannel-outcome';

/** One queued logout as the console shows it: its state, never the token (none is kept). */
export class BackchannelLogoutView {
  @ApiProperty({ description: 'The logout, by id' })
  id!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'When the session ended and the logout was queued',
  })
  createdAt!: string;
  @ApiProperty({
    enum: BACKCHANNEL_STATUSES,
    description:
      'pending (to be sent or retried), delivered (a 2xx), refused (a 4xx but 408, 425, 429: final), abandoned (24 hours of failures, or the logout URI removed)',
  })
  status!: string;
  @ApiProperty({ description: 'Attempts made' })
  attempts!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The last attempt's HTTP status, null when none came",
  })
  lastStatusCode!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The last attempt's error (at most 500 characters of the answer), null after a 2xx",
  })
  lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastAttemptAt!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null once the logout is final',
  })
  nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deliveredAt!: string | null;
}
