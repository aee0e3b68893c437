import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '../../common/http/openapi-security';
import { rfc3339 } from '../../common/http/timestamps';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { NoScopes } from '../keys/auth.decorators';
import { MeResponse } from './me.dto';

@ApiTags('application API')
@ApiKeyAuth()
@Controller('api/v1/app')
export class MeController {
  /** GET /me: the calling key and its application; no scope needed (spec 4.1). */
  @Get('me')
  @NoScopes()
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
      // Only usable keys authenticate, so the calling key is always active (spec section 2).
      status: 'active',
      lastUsedAt: rfc3339(key.lastUsedAt),
      createdAt: key.createdAt.toISOString(),
    },
  };
}
