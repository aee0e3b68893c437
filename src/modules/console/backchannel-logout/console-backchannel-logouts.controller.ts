import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApplicationRole, ScopedApplication } from '../roles/application-role';
import { ConsoleRoute } from '../session/console-session';
import { BackchannelLogoutView } from './backchannel-logout-view';
import { ConsoleBackchannelLogouts } from './console-backchannel-logouts.service';

/** The back-channel logouts of an application: admins see how each went. */
@ApiTags('console')
@ConsoleRoute()
@Controller('api/console/applications/:applicationId/backchannel-logouts')
export class ConsoleBackchannelLogoutsController {
  constructor(private readonly logouts: ConsoleBackchannelLogouts) {}

  @Get()
  @ApiOperation({
    summary: 'The latest 50 back-channel logouts of the application, newest first',
    description:
      'Status, attempts, the last answer or error and the next attempt of each; never the logout token, which is signed for each attempt and not kept.',
  })
  @ApplicationRole('admin')
  @ApiOkResponse({ type: [BackchannelLogoutView] })
  listBackchannelLogouts(
    @ScopedApplication() app: ScopedApplication,
  ): Promise<BackchannelLogoutView[]> {
    return this.logouts.latest(app);
  }
}
