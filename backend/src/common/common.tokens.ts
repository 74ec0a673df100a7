/** The `Clock` the app uses (`systemClock` outside tests). */
export const CLOCK = Symbol('CLOCK');
