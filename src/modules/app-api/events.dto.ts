import { ApiProperty } from '@nestjs/swagger';

/** Spec section 2, Event. */
export class EventViewDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'authorization_granted' }) eventType!: string;
  @ApiProperty({ example: 'oauth2' }) protocol!: string;
  @ApiProperty({ example: 'success' }) status!: string;
  @ApiProperty({ nullable: true, type: String }) userId!: string | null;
  @ApiProperty({ description: 'Space-separated scope names' }) scope!: string;
  @ApiProperty({ description: 'May be empty' }) description!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class EventPageDto {
  @ApiProperty({
    type: [EventViewDto],
    description: 'Newest first (createdAt, then id, descending); with after: ascending id',
  })
  items!: EventViewDto[];
  @ApiProperty({ description: 'The limit used (after clamping to 200)' }) limit!: number;
}
