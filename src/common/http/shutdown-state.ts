import { Injectable } from '@nestjs/common';

/**
 * Whether this instance is shutting down: set by the signal handler (graceful-shutdown.ts) the
 * moment SIGTERM arrives, read by GET /health/ready, which answers 503 from then on so that a
 * load balancer stops sending before the listener closes (docs/adr/0004).
 */
@Injectable()
export class ShutdownState {
  private draining = false;

  begin(): void {
    this.draining = true;
  }

  get shuttingDown(): boolean {
    return this.draining;
  }
}
