import { START } from '../event-source';
import type { Projection } from '../projection';
import type { ProjectionRunner } from './projection-runner';

/**
 * Compile-time checks (the type-check runs them; at run time these functions are never called): a
 * runner waits only for projections it was given, so a misspelt name is a compile error, not a wait
 * that times out.
 */
describe('ProjectionRunner names', () => {
  it('waits only for the read side projections by default', () => {
    const check = (runner: ProjectionRunner): void => {
      void runner.waitFor(['tickets', 'email-log'], START, 0);
      // @ts-expect-error 'ticket' is not a projection of the read side
      void runner.waitFor(['ticket'], START, 0);
    };
    expect(check).toBeInstanceOf(Function);
  });

  it('takes its names from the projections it runs', () => {
    type Custom = Projection<'applied-events', { applied_events: { event_id: string } }>;
    const check = (runner: ProjectionRunner<Custom>): void => {
      void runner.waitFor(['applied-events'], START, 0);
      // @ts-expect-error this runner does not run the tickets projection
      void runner.waitFor(['tickets'], START, 0);
    };
    expect(check).toBeInstanceOf(Function);
  });
});
