/**
 * The least time, in milliseconds, an answer that must not tell whether an address has an
 * account takes (docs/accounts.md, "Password reset" and "Sign-up"): asking for a reset code or
 * signing up writes a code only in one of the two cases, and trying a wrong code counts the try
 * only on a real code, a few milliseconds each.
 * Measured on a loaded 2-core machine, the slower branch took at most 190 ms in 400 requests.
 */
export const ANSWER_FLOOR_MS = 250;

/** A point in time to measure the floor from (monotonic, not the injectable Clock). */
export function floorStart(): number {
  return performance.now();
}

/** Resolves once `floorMs` have passed since `startedAt` (at once when they have). */
export async function answerFloor(startedAt: number, floorMs = ANSWER_FLOOR_MS): Promise<void> {
  const remaining = startedAt + floorMs - performance.now();
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}
