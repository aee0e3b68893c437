import { Controller, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { IntrospectionDocs } from './introspection.openapi';
import { Introspection, IntrospectionService } from './introspection.service';
import { readForm } from '../protocol/params';
import { OAuthExceptionFilter } from '../protocol/oauth-exception.filter';
import { RevocationDocs } from './revocation.openapi';
import { RevocationService } from './revocation.service';
import { TOKEN_MANAGEMENT_PARAMETERS } from './token-type-hint';

/** Token revocation (RFC 7009) and introspection (RFC 7662): client-authenticated, no API key. */
@ApiTags('OAuth 2.0')
@Public()
@Controller('api/oauth2')
@UseFilters(OAuthExceptionFilter)
export class TokenManagementController {
  constructor(
    private readonly revocation: RevocationService,
    private readonly introspection: IntrospectionService,
  ) {}

  @Post('revoke')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @RevocationDocs()
  revoke(@Req() req: Request): Promise<void> {
    return this.revocation.revoke(
      readForm(req, TOKEN_MANAGEMENT_PARAMETERS),
      req.headers.authorization,
    );
  }

  @Post('introspect')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @IntrospectionDocs()
  introspect(@Req() req: Request): Promise<Introspection> {
    return this.introspection.introspect(
      readForm(req, TOKEN_MANAGEMENT_PARAMETERS),
      req.headers.authorization,
    );
  }
}
