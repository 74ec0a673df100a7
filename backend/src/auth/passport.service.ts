import { Injectable, Logger } from '@nestjs/common';
import { Passport } from 'passport';
import { type PrincipalKind, principalKey } from './principal';

type Loader = (id: number) => Promise<Express.User | null>;

/**
 * One passport instance for the application (not the global singleton, so two apps in one process stay
 * apart). Sessions store `kind:id`; each kind registers its strategy and a loader that turns the id back
 * into request.user on every request (an account that no longer exists ends the session).
 */
@Injectable()
export class PassportService {
  readonly passport = new Passport();
  private readonly logger = new Logger(PassportService.name);
  private readonly loaders = new Map<PrincipalKind, Loader>();

  constructor() {
    this.passport.serializeUser((user, done) => done(null, principalKey(user.kind, user.id)));
    this.passport.deserializeUser((key: unknown, done) => {
      const match = typeof key === 'string' ? /^(customer|admin):([1-9][0-9]{0,15})$/.exec(key) : null;
      const loader = match ? this.loaders.get(match[1] as PrincipalKind) : undefined;
      if (!match || !loader) {
        done(null, false);
        return;
      }
      loader(Number(match[2])).then(
        (user) => done(null, user ?? false),
        (error: unknown) => {
          this.logger.error(`Could not load ${match[0]}: ${error instanceof Error ? error.message : String(error)}`);
          done(error);
        },
      );
    });
  }

  registerKind(kind: PrincipalKind, loader: Loader): void {
    this.loaders.set(kind, loader);
  }
}
