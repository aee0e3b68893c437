import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { rfc3339 } from '../../common/http/timestamps';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { NoScopes } from '../keys/auth.decorators';
import { MeResponse } from './me.dto';
import { AppApiRoute } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: false })
@Controller('api/v1/app')
export class MeController {
  /** GET /me: the calling key and its application; no scope needed (docs/contract/api-keys.md#scopes). */
  @Get('me')
  @NoScopes()
  @ApiOperation({ summary: 'The calling key and its application' })
  @ApiOkResponse({ type: MeResponse })
  getMe(@CurrentApiKey() context: ApiKeyContext): MeResponse {
    return toMeResponse(context);
  }
}

function toMeResponse({ application: app, apiKey: key }: ApiKeyContext): MeResponse {
  return {
    app: {
      id: app.id,
      name: app.name,
      description: app.description,
      homeUrl: app.homeUrl,
      logo: app.logo,
      enabled: app.enabled,
      isPublic: app.isPublic,
      createdAt: app.createdAt.toISOString(),
    },
    apiKey: {
      id: key.id,
      name: key.name,
      keyPrefix: key.keyPrefix,
      scopes: [...key.scopes],
      // Only usable keys authenticate, so the calling key is always active (docs/contract/api-keys.md#key-states).
      status: 'active',
      lastUsedAt: rfc3339(key.lastUsedAt),
      createdAt: key.createdAt.toISOString(),
    },
  };
}
