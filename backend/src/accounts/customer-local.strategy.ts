import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Strategy as LocalStrategy } from 'passport-local';
import { PassportService } from '../auth/passport.service';
import { AccountsService } from './accounts.service';

/** The passport strategy name for customers (admins get their own). */
export const CUSTOMER_LOCAL = 'customer-local';

/**
 * Registers the customer strategy (email or username in the `email` field) and the session loader. The
 * per-account login limit lives in AccountsService.authenticate: its 429 reaches the caller as the
 * strategy's error.
 */
@Injectable()
export class CustomerLocalStrategy implements OnModuleInit {
  constructor(
    private readonly passport: PassportService,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.passport.passport.use(
      CUSTOMER_LOCAL,
      new LocalStrategy({ usernameField: 'email', passwordField: 'password', session: false }, (identifier, password, done) => {
        this.accounts.authenticate(identifier, password).then(
          (customer) => done(null, customer ?? false),
          (error: unknown) => done(error),
        );
      }),
    );
    this.passport.registerKind('customer', (id) => this.accounts.findPrincipal(id));
  }
}
