import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/**
 * The WebAuthn relying party: its id is the host name of PUBLIC_BASE_URL and the only origin
 * accepted in clientDataJSON is that URL's origin (W3C WebAuthn Level 3, sections 5.1.4.1 and
 * 7.2 step 9). A response signed for any other origin or RP id is refused.
 */
@Injectable()
export class RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name = 'Identity service';

  constructor(@Inject(AppConfig) config: AppConfig) {
    const url = new URL(config.publicBaseUrl);
    this.id = url.hostname;
    this.origin = url.origin;
  }
}
