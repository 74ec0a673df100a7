/** Where time comes from: injected, so command handlers stamp events with a time that tests can fix. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stays where it is put (tests). */
export function fixedClock(at: Date | string): Clock & { set(at: Date | string): void } {
  let current = new Date(at);
  return {
    now: () => new Date(current),
    set(next) {
      current = new Date(next);
    },
  };
}
