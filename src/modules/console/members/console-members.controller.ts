import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Put } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { PASSKEY_CONFIRMATION_HEADER } from '../passkeys/confirmations/confirmation-actions';
import { BadBody, Conflict } from '../console.openapi';
import { PasskeyConfirmed } from '../passkeys/confirmations/passkey-confirmed.openapi';
import { PathUserId } from '../../users/user-query';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleMemberChanges } from './console-member-changes.service';
import { MemberRoleBody } from './member.dto';
import { MemberView } from './member-views';

/**
 * Who has console access to the application (docs/console.md, "Roles"). Console roles are
 * given here only, never through a user's group: no API key reaches them.
 */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/members')
export class ConsoleMembersController {
  constructor(private readonly members: ConsoleMemberChanges) {}

  @Get()
  @ApiOperation({ summary: 'Who has console access: the owner, then admins and viewers' })
  @ApplicationRole('admin')
  @ApiOkResponse({ type: [MemberView] })
  listMembers(@ScopedApplication() app: ScopedApplication): Promise<MemberView[]> {
    return this.members.list(app);
  }

  @Put(':userId')
  @ApiOperation({
    summary:
      'Give a user of the application a console role (passkey confirmation console_role.grant)',
    description:
      'The user must have a relation to the application (any group, enabled or not). The owner gives admin or viewer, and changes either into the other; an admin gives viewer only. The confirmation is bound to the application, the user and the role given.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('console_role.grant')
  @ApiParam({ name: 'userId', type: String })
  @BadBody('invalid_user_id, invalid_body, unknown_field')
  @ApiErrorResponse(404, 'user_not_found: the user has no relation to the application')
  @Conflict(
    "the user is the application's owner, has this role already, or the role changed meanwhile",
  )
  @ApiOkResponse({ type: MemberView })
  grantMemberRole(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    // A parameter decorator: the id is checked before the body (the pipe).
    @PathUserId() userId: string,
    @Body() body: MemberRoleBody,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<MemberView> {
    return this.members.grant(actor, app, userId, body, confirmation);
  }

  @Delete(':userId')
  @HttpCode(204)
  @ApiOperation({
    summary: "Withdraw a user's console role (passkey confirmation console_role.revoke)",
    description:
      'The owner withdraws admin or viewer, an admin viewer only. The confirmation is bound to the application, the user and the role withdrawn.',
  })
  @ApplicationRole('admin')
  @PasskeyConfirmed('console_role.revoke')
  @BadBody('invalid_user_id')
  @ApiErrorResponse(
    404,
    'user_not_found: no relation to the application; not_found: the user has no console role',
  )
  @Conflict("the user is the application's owner, or the role changed meanwhile")
  @ApiNoContentResponse()
  revokeMemberRole(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('userId') userId: string,
    @Headers(PASSKEY_CONFIRMATION_HEADER) confirmation: string | undefined,
  ): Promise<void> {
    return this.members.revoke(actor, app, userId, confirmation);
  }
}
