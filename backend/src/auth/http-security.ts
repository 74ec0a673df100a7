import type { INestApplication } from '@nestjs/common';
import express from 'express';
import session from 'express-session';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.module';
import { csrfProtection } from './csrf.middleware';
import { PassportService } from './passport.service';
import { sessionSecret } from './session-secret';
import { PgSessionStore } from './session-store';

export const SESSION_COOKIE = 'ppr.sid';

/**
 * Installs, before any body parsing and route: the CSRF check, the session (PostgreSQL store, HttpOnly,
 * SameSite=Lax, Secure in production, a browser-session cookie that the server ends after
 * SESSION_IDLE_HOURS without a request) and passport. Sessions are only read and written under /api.
 */
export async function installHttpSecurity(app: INestApplication): Promise<void> {
  const config = app.get<AppConfig>(APP_CONFIG);
  const db = app.get<Database>(DATABASE);
  const store = app.get(PgSessionStore);
  const { passport } = app.get(PassportService);

  app.use(csrfProtection({ trustedOrigins: [...(config.APP_BASE_URL ? [config.APP_BASE_URL] : []), ...config.TRUSTED_ORIGINS] }));
  app.use(
    '/api',
    session({
      name: SESSION_COOKIE,
      secret: await sessionSecret(config, db.pool),
      store,
      resave: false,
      saveUninitialized: false,
      unset: 'destroy',
      cookie: { httpOnly: true, sameSite: 'lax', secure: config.NODE_ENV === 'production', path: '/' },
    }),
    passport.initialize(),
    passport.session(),
  );
  // The verification page's plain HTML form (the only form body the API reads).
  app.use('/api/customer/verify-email', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }));
}
