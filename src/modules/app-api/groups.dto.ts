import { ApiProperty } from '@nestjs/swagger';

/** docs/contract/groups.md. */
export class GroupView {
  @ApiProperty() code!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String] }) impliedGroups!: string[];
}

export class GroupsResponse {
  @ApiProperty({ type: [GroupView] }) items!: GroupView[];
  @ApiProperty() note!: string;
}
