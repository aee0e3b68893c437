import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CLIENT_AUTH_METHODS, type Application } from '../../applications/application.entity';
import { CONSOLE_ROLES, type ConsoleRole } from '../roles/console-access.service';

const POST_LOGOUT_URIS =
  'Where RP-initiated logout may return: exact match, the same rule as redirect URIs; [] for none';

/** An application in the console's list: what every role may see. */
export class ApplicationSummary {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'URL, or empty' }) logo!: string;
  @ApiProperty({ description: 'URL, or empty' }) homeUrl!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: CONSOLE_ROLES, description: "The signed-in user's role" }) role!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/**
 * One application. Admins and the owner also get the client and its settings; a viewer gets
 * the summary fields only (no client id, redirect URIs or settings; docs/console.md).
 */
export class ApplicationDetail extends ApplicationSummary {
  @ApiPropertyOptional({ description: 'admin and owner only' }) clientId?: string;
  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS, description: 'admin and owner only' })
  clientAuthMethod?: string;
  @ApiPropertyOptional({ type: [String], description: 'admin and owner only' })
  redirectUris?: string[];
  @ApiPropertyOptional({
    type: [String],
    description:
      'admin and owner only: where RP-initiated logout may return (exact match, docs/oidc.md)',
  })
  postLogoutRedirectUris?: string[];
  @ApiPropertyOptional({ description: 'admin and owner only' }) isPublic?: boolean;
  @ApiPropertyOptional({ description: 'admin and owner only' }) requireVerifiedEmail?: boolean;
  @ApiPropertyOptional({
    type: [String],
    description:
      'admin and owner only: upstream provider ids of which a user must have one bound to use the application',
  })
  requiredUpstreams?: string[];
  @ApiPropertyOptional({ format: 'date-time', description: 'admin and owner only' })
  updatedAt?: string;
}

/** Answer of create and of a settings change: the detail plus a client secret shown once. */
export class ApplicationWithSecret extends ApplicationDetail {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The new client secret, shown this once: on creation of a `secret` client, and when a change to `secret` issued one; otherwise null',
  })
  clientSecret!: string | null;
}

export class ClientSecretView {
  @ApiProperty({ description: 'The new client secret, shown this once; the old one stops working' })
  clientSecret!: string;
}

/** Body of POST /api/console/applications. */
export class NewApplicationBody {
  @ApiProperty({ maxLength: 100 }) name!: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ description: 'URL' }) homeUrl?: string;
  @ApiPropertyOptional({ description: 'URL' }) logo?: string;
  @ApiPropertyOptional({ type: [String], description: 'Exact-match redirect URIs' })
  redirectUris?: string[];
  @ApiPropertyOptional({ type: [String], description: POST_LOGOUT_URIS })
  postLogoutRedirectUris?: string[];
  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS, default: 'secret' }) clientAuthMethod?: string;
  @ApiPropertyOptional({ default: false }) isPublic?: boolean;
  @ApiPropertyOptional({ default: false }) requireVerifiedEmail?: boolean;
}

/** Body of PATCH /api/console/applications/{id}: any of these, at least one. */
export class ApplicationSettingsBody {
  @ApiPropertyOptional({ maxLength: 100 }) name?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() homeUrl?: string;
  @ApiPropertyOptional() logo?: string;
  @ApiPropertyOptional({ type: [String] }) redirectUris?: string[];
  @ApiPropertyOptional({ type: [String], description: POST_LOGOUT_URIS })
  postLogoutRedirectUris?: string[];
  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS }) clientAuthMethod?: string;
  @ApiPropertyOptional() isPublic?: boolean;
  @ApiPropertyOptional() enabled?: boolean;
  @ApiPropertyOptional() requireVerifiedEmail?: boolean;
  @ApiPropertyOptional({
    type: [String],
    description: 'Configured upstream provider ids (400 invalid_request for another); [] for none',
  })
  requiredUpstreams?: string[];
}

export function toSummary(application: Application, role: ConsoleRole): ApplicationSummary {
  return {
    id: application.id,
    name: application.name,
    description: application.description,
    logo: application.logo,
    homeUrl: application.homeUrl,
    enabled: application.enabled,
    role,
    createdAt: application.createdAt.toISOString(),
  };
}

export function toDetail(application: Application, role: ConsoleRole): ApplicationDetail {
  const summary = toSummary(application, role);
  if (role === 'viewer') return summary;
  return {
    ...summary,
    clientId: application.clientId,
    clientAuthMethod: application.clientAuthMethod,
    redirectUris: [...application.redirectUris],
    postLogoutRedirectUris: [...application.postLogoutRedirectUris],
    isPublic: application.isPublic,
    requireVerifiedEmail: application.requireVerifiedEmail,
    requiredUpstreams: [...application.requiredUpstreams],
    updatedAt: application.updatedAt.toISOString(),
  };
}
