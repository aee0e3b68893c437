import { Injectable } from '@nestjs/common';
import { ConsoleAccess, toApplicationId, type ConsoleRole } from './console-access.service';
import type { ConsoleActor } from '../session/console-session';

/** An application the actor may act on, with the actor's role in it. */
export interface ScopedApplication {
  applicationId: number;
  role: ConsoleRole;
}

/**
 * The first step of every per-application console route: the actor's role in the path's
 * application, at least `needed` (404 not_found without one, 403 forbidden below it).
 */
@Injectable()
export class ConsoleScope {
  constructor(private readonly access: ConsoleAccess) {}

  async of(actor: ConsoleActor, rawId: string, needed: ConsoleRole): Promise<ScopedApplication> {
    const role = await this.access.require(actor, rawId, needed);
    // require() only answers with a role for an id toApplicationId accepts.
    return { applicationId: toApplicationId(rawId)!, role };
  }
}
