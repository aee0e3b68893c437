import type { Application } from './application.entity';

/** What the application API needs of the calling application: GET /me's fields, the switch, the limit. */
export type ApiApplication = Pick<
  Application,
  | 'id'
  | 'name'
  | 'description'
  | 'homeUrl'
  | 'logo'
  | 'enabled'
  | 'isPublic'
  | 'rateLimitPerMinute'
  | 'createdAt'
>;

/** The columns of ApiApplication as `app_*` aliases, for a statement that joins `applications` as `alias`. */
export const apiApplicationColumnsSql = (alias: string): string =>
  [
    'id',
    'name',
    'description',
    'home_url',
    'logo',
    'enabled',
    'is_public',
    'rate_limit_per_minute',
    'created_at',
  ]
    .map((column) => `${alias}.${column} AS app_${column}`)
    .join(', ');

export interface ApiApplicationRow {
  app_id: number;
  app_name: string;
  app_description: string;
  app_home_url: string;
  app_logo: string;
  app_enabled: boolean;
  app_is_public: boolean;
  app_rate_limit_per_minute: number | null;
  app_created_at: Date;
}

export function toApiApplication(row: ApiApplicationRow): ApiApplication {
  return {
    id: row.app_id,
    name: row.app_name,
    description: row.app_description,
    homeUrl: row.app_home_url,
    logo: row.app_logo,
    enabled: row.app_enabled,
    isPublic: row.app_is_public,
    rateLimitPerMinute: row.app_rate_limit_per_minute,
    createdAt: row.app_created_at,
  };
}
