import { Application } from '../modules/applications/application.entity';
import { ApiKey } from '../modules/keys/api-key.entity';
import { UserEmail } from '../modules/users/user-email.entity';
import { User } from '../modules/users/user.entity';

/** Every entity, listed explicitly so the service, the CLI, tests and the TypeORM CLI agree. */
export const ENTITIES = [Application, ApiKey, User, UserEmail];
