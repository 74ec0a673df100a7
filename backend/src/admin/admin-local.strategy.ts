import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Strategy as LocalStrategy } from 'passport-local';
import { PassportService } from '../auth/passport.service';
import { AdminAccountsService } from './admin-accounts.service';

/** The passport strategy name for admins: their own, apart from the customers' `customer-local`. */
export const ADMIN_LOCAL = 'admin-local';

/**
 * Registers the admin strategy (username and password) and the loader of `admin:{id}` sessions. The
 * login limit lives in AdminAccountsService.authenticate; its 429 reaches the caller as the strategy's error.
 */
@Injectable()
export class AdminLocalStrategy implements OnModuleInit {
  constructor(
    private readonly passport: PassportService,
    private readonly accounts: AdminAccountsService,
  ) {}

  onModuleInit(): void {
    this.passport.passport.use(
      ADMIN_LOCAL,
      new LocalStrategy({ usernameField: 'username', passwordField: 'password', session: false }, (username, password, done) => {
        this.accounts.authenticate(username, password).then(
          (admin) => done(null, admin ?? false),
          (error: unknown) => done(error),
        );
      }),
    );
    this.passport.registerKind('admin', (id) => this.accounts.findPrincipal(id));
  }
}
