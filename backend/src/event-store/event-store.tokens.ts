/** The event store port (`EventStore`), whichever adapter the configuration selects. */
export const EVENT_STORE = Symbol('EVENT_STORE');
