import { Injectable } from '@nestjs/common';

/** Where this instance is in its life, as GET /api/health/ready reports it. */
export type ServingPhase = 'starting' | 'serving' | 'draining';

/**
 * Whether this instance takes traffic: `starting` until the app's root has started the processing host (the last
 * step of the start, app.module.ts), `draining` from the shutdown signal on (main.ts) and while the app closes. A
 * drain never turns back into serving.
 */
@Injectable()
export class ServingState {
  private current: ServingPhase = 'starting';

  get phase(): ServingPhase {
    return this.current;
  }

  /** The start is complete. */
  serve(): void {
    if (this.current === 'starting') this.current = 'serving';
  }

  /** The instance is shutting down: load balancers should send it nothing new. */
  drain(): void {
    this.current = 'draining';
  }
}
