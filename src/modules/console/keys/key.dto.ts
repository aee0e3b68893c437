import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { API_SCOPES } from '../../keys/scopes';

const NAME_MAX = 100;
const MAX_SCOPES = 20;

/** Body of POST /api/console/applications/{id}/keys: a name and at least one known scope. */
export class NewKeyBody {
  @ApiProperty({ maxLength: NAME_MAX, description: 'Trimmed; not blank' })
  @IsString({ message: `name is required (1 to ${NAME_MAX} characters)` })
  @MaxLength(NAME_MAX, { message: `name is required (1 to ${NAME_MAX} characters)` })
  @Matches(/\S/, { message: `name is required (1 to ${NAME_MAX} characters)` })
  name!: string;

  @ApiProperty({
    enum: API_SCOPES,
    isArray: true,
    minItems: 1,
    maxItems: MAX_SCOPES,
    description: 'At least one',
  })
  @IsArray({ message: 'scopes must list at least one scope' })
  @ArrayMinSize(1, { message: 'scopes must list at least one scope' })
  @ArrayMaxSize(MAX_SCOPES, { message: `scopes must list at most ${MAX_SCOPES} scopes` })
  @IsIn(API_SCOPES, { each: true, message: `scopes must be among ${API_SCOPES.join(', ')}` })
  scopes!: string[];
}
