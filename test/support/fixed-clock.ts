import { Clock } from '../../src/common/clock';

/** A clock that moves only when told to, for expiry and grace-period tests without sleeping. */
export class FixedClock extends Clock {
  private current: Date;

  constructor(start = new Date()) {
    super();
    this.current = new Date(start);
  }

  override now(): Date {
    return new Date(this.current);
  }

  set(at: Date): void {
    this.current = new Date(at);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
