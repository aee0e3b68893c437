/**
 * How deep a request body may nest objects and arrays. No DTO nests more than a few levels (a
 * passkey response is the deepest, at four); a 100 kB JSON body could nest fifty thousand, which
 * class-transformer, class-validator and every recursive reader after them would walk until the
 * stack ran out (a 500). Refused as invalid_body before any of them runs (inputProblem, control-characters.ts).
 */
export const MAX_NESTING_DEPTH = 16;
