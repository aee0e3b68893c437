import { Injectable } from '@nestjs/common';

/** The source of "now" for every rule that depends on time; tests replace it with a fixed clock. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
