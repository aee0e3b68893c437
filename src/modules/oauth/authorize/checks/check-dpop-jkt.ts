import { type Params } from '../../../../common/http/params';
import { invalidRequest } from '../../protocol/oauth-error';
import { param } from '../../protocol/params';

/**
 * RFC 9449 section 10: `dpop_jkt` asks the server to bind the code to a DPoP key before the
 * exchange. This server binds the tokens at the exchange only (docs/oauth.md, "Sender-constrained
 * tokens (DPoP)"), so a request that sends it is refused rather than served without the binding
 * its client counts on.
 */
export function checkDpopJkt(params: Params): void {
  if (param(params, 'dpop_jkt') !== undefined) {
    throw invalidRequest(
      'dpop_jkt is not supported: send a DPoP proof with the token request to bind the tokens',
    );
  }
}
