import type { Repository } from 'typeorm';
import { Application } from '../../../applications/application.entity';
import { PageError } from '../../../pages/page-error';
import { type Params } from '../../../../common/http/params';
import { msg } from '../../../../common/i18n/i18n';

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
    throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.clientIdMissing'));
  }
  const application = clientId.length <= 64 ? await applications.findOneBy({ clientId }) : null;
  if (!application) {
    throw new PageError(
      400,
      msg('errors.unknownApplicationTitle'),
      msg('errors.unknownApplication'),
    );
  }
  return application;
}
