import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SessionAuth } from '../../common/http/openapi-security';
import { ConsoleActor, ConsoleRoute } from '../console/console-session';
import { UpstreamIdentitiesService } from '../upstreams/identities/upstream-identities.service';
import type { UpstreamIdentity } from '../upstreams/identities/upstream-identity.entity';

/** One upstream account bound to the signed-in user, as the console's account page shows it. */
export class AccountUpstreamView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'The configured provider id' }) providerId!: string;
  @ApiProperty({ description: "The provider's user id" }) subject!: string;
  @ApiProperty({ type: 'string', nullable: true }) username!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastUsedAt!: string | null;
}

/** The account page's bound upstream accounts (issue 11 item 3). */
@ApiTags('console')
@SessionAuth()
@ConsoleRoute()
@Controller('api/console/account/upstreams')
export class AccountUpstreamsController {
  constructor(private readonly identities: UpstreamIdentitiesService) {}

  @Get()
  @ApiOperation({ summary: "The signed-in user's bound upstream accounts, oldest first" })
  @ApiOkResponse({ type: [AccountUpstreamView] })
  async listAccountUpstreams(@ConsoleActor() actor: ConsoleActor): Promise<AccountUpstreamView[]> {
    return (await this.identities.listForUser(actor.user.id)).map(toView);
  }
}

function toView(identity: UpstreamIdentity): AccountUpstreamView {
  return {
    id: identity.id,
    providerId: identity.providerId,
    subject: identity.subject,
    username: identity.profile.username,
    createdAt: identity.createdAt.toISOString(),
    lastUsedAt: identity.lastUsedAt?.toISOString() ?? null,
  };
}
