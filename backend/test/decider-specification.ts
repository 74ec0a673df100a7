import type { Decider } from '../src/tickets/domain/ticket.decide';

/**
 * Given/when/then for a decider (after emmett's DeciderSpecification): the history is folded with the
 * decider's own `evolve` from its `initialState`, so the tests run exactly what the handler runs.
 */
export function deciderSpecification<Command, State, Event>(decider: Decider<Command, State, Event>) {
  return (...history: Event[]) => ({
    when(command: Command) {
      const run = (): Event[] => decider.decide(command, history.reduce(decider.evolve, decider.initialState));
      return {
        then(expected: Event[]): void {
          expect(run()).toEqual(expected);
        },
        thenNothingHappens(): void {
          expect(run()).toEqual([]);
        },
        thenFails(check: (error: unknown) => void): void {
          let caught: unknown = undefined;
          let threw = false;
          try {
            run();
          } catch (error) {
            threw = true;
            caught = error;
          }
          expect(threw).toBe(true);
          check(caught);
        },
      };
    },
  });
}
