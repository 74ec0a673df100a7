import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Post,
  Req,
  Res,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import {
  type AdminLogin,
  adminLoginSchema,
  adminMessages,
  type AdminSetup,
  adminSetupSchema,
  type AdminSetupStatus,
  type AdminUser,
  type ApiError,
  type ChangePassword,
  changePasswordSchema,
  type MessageResponse,
} from '@ppr/contracts';
import type { Request, Response } from 'express';
import { NoBodyPipe } from '../common/no-body.pipe';
import { PassportService } from '../auth/passport.service';
import { PasswordSessions } from '../auth/password-login';
import { RateLimiter } from '../auth/rate-limiter';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import { AdminAccountsService } from './admin-accounts.service';
import { ADMIN_LOCAL } from './admin-local.strategy';
import { AdminGuard, currentAdmin, requireAdmin } from './admin.guard';
import type { AdminPrincipal } from './admin.types';
import { withRetryAfter } from './retry-after';

/**
 * POST /api/admin/create: while no admin exists anyone may create the first one (the setup screen); after
 * that only a logged-in admin, who adds a further admin. Everyone else gets the 403 before the body is even
 * read, so a closed setup tells nothing about its rules.
 */
@Injectable()
export class SetupOrAdminGuard implements CanActivate {
  constructor(private readonly accounts: AdminAccountsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (currentAdmin(context.switchToHttp().getRequest<Request>())) return true;
    if (await this.accounts.setupOpen()) return true;
    throw new ForbiddenException({ message: adminMessages.setupClosed } satisfies ApiError);
  }
}

/** Admin setup, sessions and password (SPEC section 7, admin table). */
@Controller('admin')
export class AdminAuthController {
  private readonly sessions: PasswordSessions;

  constructor(
    private readonly accounts: AdminAccountsService,
    passport: PassportService,
    limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // The customers' login flow, on counters of its own; nothing of what the session held before (a
    // customer's login, a guest's tickets) carries over into the admin's.
    this.sessions = new PasswordSessions(
      { passport, limiter, config },
      {
        strategy: ADMIN_LOCAL,
        addressCounter: 'admin-login',
        invalidCredentials: adminMessages.invalidCredentials,
        keepSessionInfo: false,
      },
    );
  }

  @Get('setup-status')
  async setupStatus(): Promise<AdminSetupStatus> {
    return { setupOpen: await this.accounts.setupOpen() };
  }

  @Post('create')
  @HttpCode(201)
  @UseGuards(SetupOrAdminGuard)
  create(@Body(new ZodBodyPipe(adminSetupSchema)) body: AdminSetup, @Req() request: Request): Promise<AdminUser> {
    const admin = currentAdmin(request);
    return admin ? this.accounts.createAdmin(body, admin) : this.accounts.createFirstAdmin(body);
  }

  @Post('login')
  @HttpCode(200)
  async login(
    @Body(new ZodBodyPipe(adminLoginSchema)) body: AdminLogin,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AdminUser> {
    return this.user(await this.sessions.logIn<AdminPrincipal>(body, request, response));
  }

  private async user(admin: AdminPrincipal): Promise<AdminUser> {
    const user = await this.accounts.findUser(admin.id);
    if (!user) throw new UnauthorizedException({ message: adminMessages.notLoggedIn } satisfies ApiError);
    return user;
  }

  @Get('me')
  @UseGuards(AdminGuard)
  me(@Req() request: Request): Promise<AdminUser> {
    return this.user(requireAdmin(request));
  }

  /** Ends an admin's session. A customer's session is not the admin screens' to end: it is left as it is. */
  @Post('logout')
  @HttpCode(200)
  async logout(
    @Body(new NoBodyPipe()) _body: undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    if (!currentAdmin(request)) return { message: adminMessages.loggedOut };
    await this.sessions.end(request, response);
    return { message: adminMessages.loggedOut };
  }

  @Post('change-password')
  @HttpCode(200)
  @UseGuards(AdminGuard)
  async changePassword(
    @Body(new ZodBodyPipe(changePasswordSchema)) body: ChangePassword,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const admin = requireAdmin(request);
    await withRetryAfter(response, () => this.accounts.changePassword(admin, body.currentPassword, body.newPassword, request.sessionID));
    return { message: adminMessages.passwordChanged };
  }
}
