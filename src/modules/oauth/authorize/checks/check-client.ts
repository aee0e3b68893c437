import type { Repository } from 'typeorm';
import { Application } from '../../../applications/application.entity';
import { PageError } from '../../protocol/oauth-error';
import type { Params } from '../../protocol/params';

/**
 * First step of /oauth2/authorize: the client must be known before anything can be redirected
 * to it, so failures render an error page (RFC 6749 section 4.1.2.1).
 */
export async function checkClient(
  params: Params,
  applications: Repository<Application>,
): Promise<Application> {
  const clientId = params.client_id;
  if (typeof clientId !== 'string' || clientId === '') {
    throw new PageError(400, 'Invalid request', 'The client_id parameter is missing or repeated.');
  }
  const application = clientId.length <= 64 ? await applications.findOneBy({ clientId }) : null;
  if (!application) {
    throw new PageError(400, 'Unknown application', 'No application has this client_id.');
  }
  return application;
}
