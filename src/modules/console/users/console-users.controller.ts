import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../../../common/errors/error-body.openapi';
import { ConsoleActor, ConsoleRoute } from '../session/console-session';
import { EventListQuery } from '../../events/event-query';
import { EventPage } from '../../events/event-view';
import { StatsView } from '../../stats/stats-view';
import { UserPatch } from '../../users/user-patch';
import { PathUserId, UserListQuery } from '../../users/user-query';
import { RevocationResult, UserPage, UserView } from '../../users/user-view';
import { BadBody } from '../console.openapi';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleUsers } from './console-users.service';

const USER_NOT_FOUND = 'user_not_found: no such user of the application';

/**
 * Users, events and stats of one application: the query parameters, paging, results and errors
 * of GET /api/v1/app/users, /users/{userId}, PATCH /users/{userId}, POST /users/{userId}/revoke,
 * /events and /stats (docs/users-api.md, docs/events.md, docs/stats.md). Their DTOs are checked
 * by the global pipe, after the role guard (guards run before pipes).
 */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId')
export class ConsoleUsersController {
  constructor(private readonly users: ConsoleUsers) {}

  @Get('users')
  @ApiOperation({
    summary: "The application's users; the query of GET /api/v1/app/users",
  })
  @ApplicationRole('viewer')
  @BadBody('invalid_query: see docs/users-api.md')
  @ApiOkResponse({ type: UserPage })
  listApplicationUsers(
    @ScopedApplication() app: ScopedApplication,
    @Query() query: UserListQuery,
  ): Promise<UserPage> {
    return this.users.list(app, query);
  }

  @Get('users/:userId')
  @ApiOperation({ summary: 'One user of the application' })
  @ApplicationRole('viewer')
  @BadBody('invalid_user_id')
  @ApiErrorResponse(404, USER_NOT_FOUND)
  @ApiOkResponse({ type: UserView })
  getApplicationUser(
    @ScopedApplication() app: ScopedApplication,
    @Param('userId') userId: string,
  ): Promise<UserView> {
    return this.users.get(app, userId);
  }

  @Patch('users/:userId')
  @ApiOperation({
    summary: "Change a user's group and/or enabled",
    description:
      "Disabling forces the user offline. The group is the application's data: it gives no console role (console roles are the members routes').",
  })
  @ApplicationRole('admin')
  @ApiParam({ name: 'userId', type: String })
  @BadBody(
    'invalid_user_id, invalid_body, unknown_field, empty_body, invalid_group (docs/errors.md)',
  )
  @ApiErrorResponse(404, USER_NOT_FOUND)
  @ApiOkResponse({ type: UserView })
  updateApplicationUser(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    // A parameter decorator: the id is checked before the body (the pipe).
    @PathUserId() userId: string,
    @Body() patch: UserPatch,
  ): Promise<UserView> {
    return this.users.update(actor, app, userId, patch);
  }

  @Post('users/:userId/force-offline')
  @HttpCode(200)
  @ApiOperation({
    summary: "Force a user offline: revoke the user's tokens and consent",
  })
  @ApplicationRole('admin')
  @BadBody('invalid_user_id')
  @ApiErrorResponse(404, USER_NOT_FOUND)
  @ApiOkResponse({ type: RevocationResult })
  forceUserOffline(
    @ConsoleActor() actor: ConsoleActor,
    @ScopedApplication() app: ScopedApplication,
    @Param('userId') userId: string,
  ): Promise<RevocationResult> {
    return this.users.forceOffline(actor, app, userId);
  }

  @Get('events')
  @ApiOperation({
    summary: "The application's events; the query of GET /api/v1/app/events",
  })
  @ApplicationRole('viewer')
  @BadBody('invalid_query: see docs/events.md')
  @ApiOkResponse({ type: EventPage })
  listApplicationEvents(
    @ScopedApplication() app: ScopedApplication,
    @Query() query: EventListQuery,
  ): Promise<EventPage> {
    return this.users.listEvents(app, query);
  }

  @Get('stats')
  @ApiOperation({ summary: "The application's statistics, as GET /api/v1/app/stats" })
  @ApplicationRole('viewer')
  @ApiOkResponse({ type: StatsView })
  getApplicationStats(@ScopedApplication() app: ScopedApplication): Promise<StatsView> {
    return this.users.getStats(app);
  }
}
