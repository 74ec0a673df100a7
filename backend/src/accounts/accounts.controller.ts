import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  HttpStatus,
  Inject,
  Post,
  Query,
  Req,
  Res,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import {
  accountMessages,
  type ApiError,
  type CurrentCustomer,
  type CustomerLogin,
  customerLoginSchema,
  type ForgotPasswordRequest,
  forgotPasswordSchema,
  type MessageResponse,
  type RegisterRequest,
  registerSchema,
  type ResetPasswordRequest,
  resetPasswordSchema,
  verifyEmailSchema,
} from '@ppr/contracts';
import type { NextFunction, Request, Response } from 'express';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { NoBodyPipe } from '../auth/no-body.pipe';
import { SESSION_COOKIE } from '../auth/http-security';
import { PassportService } from '../auth/passport.service';
import { type CustomerPrincipal, CustomerGuard, requireCustomer } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { AccountsService, loginAccountKey, toCurrentCustomer, TooManyRequestsException } from './accounts.service';
import { CUSTOMER_LOCAL } from './customer-local.strategy';
import { confirmVerificationPage, PAGE_HEADERS, verificationProblemPage } from './verification-page';

function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}

const verifyEmailPipe = new ZodBodyPipe(verifyEmailSchema);

/** The customer account endpoints of SPEC section 7 and the verification and password-reset flows. */
@Controller('customer')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly limiter: RateLimiter,
    private readonly passport: PassportService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @HttpCode(201)
  async register(
    @Body(new ZodBodyPipe(registerSchema)) body: RegisterRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await withRetryAfter(response, () => this.accounts.limitPublicForm('register', clientAddress(request)));
    await this.accounts.register(body);
    return { message: accountMessages.registered };
  }

  @Post('login')
  @HttpCode(200)
  async login(
    @Body(new ZodBodyPipe(customerLoginSchema)) body: CustomerLogin,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CurrentCustomer> {
    const windowSeconds = this.config.LOGIN_WINDOW_MINUTES * 60;
    const tooMany = accountMessages.tooManyLoginAttempts.replace('{minutes}', String(this.config.LOGIN_WINDOW_MINUTES));
    const perAddress = await this.limiter.hit(
      `login:address:${clientAddress(request)}`,
      this.config.LOGIN_MAX_ATTEMPTS_PER_ADDRESS,
      windowSeconds,
    );
    if (!perAddress.allowed) throw withHeader(response, new TooManyRequestsException(tooMany, perAddress.retryAfterSeconds));
    const accountKey = loginAccountKey(body.email);
    const perAccount = await this.limiter.peek(accountKey, this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds);
    if (!perAccount.allowed) throw withHeader(response, new TooManyRequestsException(tooMany, perAccount.retryAfterSeconds));

    request.body = body; // the validated, trimmed fields are what the strategy reads
    const customer = await this.authenticate(request, response);
    if (!customer) {
      await this.limiter.hit(accountKey, this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds);
      throw new UnauthorizedException({ message: accountMessages.invalidCredentials } satisfies ApiError);
    }
    await this.limiter.reset(accountKey);
    // A new session id (passport regenerates the session), keeping what the guest session held.
    await new Promise<void>((resolve, reject) =>
      request.logIn(customer, { session: true, keepSessionInfo: true }, (error: unknown) => (error ? reject(error) : resolve())),
    );
    return toCurrentCustomer(customer);
  }

  private authenticate(request: Request, response: Response): Promise<CustomerPrincipal | null> {
    return new Promise((resolve, reject) => {
      const next: NextFunction = (error?: unknown) => (error ? reject(error) : resolve(null));
      this.passport.passport.authenticate(CUSTOMER_LOCAL, { session: false }, (error: unknown, user: CustomerPrincipal | false) => {
        if (error) reject(error);
        else resolve(user || null);
      })(request, response, next);
    });
  }

  @Post('logout')
  @HttpCode(200)
  async logout(@Body(new NoBodyPipe()) _body: undefined, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<MessageResponse> {
    if (request.isAuthenticated()) {
      await new Promise<void>((resolve, reject) => request.logout((error: unknown) => (error ? reject(error) : resolve())));
    }
    await new Promise<void>((resolve, reject) => request.session.destroy((error: unknown) => (error ? reject(error) : resolve())));
    response.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.NODE_ENV === 'production',
    });
    return { message: accountMessages.loggedOut };
  }

  @Get('user')
  user(@Req() request: Request): CurrentCustomer {
    return toCurrentCustomer(requireCustomer(request));
  }

  @Get('me')
  me(@Req() request: Request): CurrentCustomer {
    return toCurrentCustomer(requireCustomer(request));
  }

  /** The emailed link: a page whose button confirms with a POST (a GET never changes anything). */
  @Get('verify-email')
  async verifyEmailPage(@Query('token') token: unknown, @Res() response: Response): Promise<void> {
    response.set(PAGE_HEADERS);
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) {
      response.status(400).send(verificationProblemPage(accountMessages.verificationInvalid));
      return;
    }
    const state = await this.accounts.checkVerificationToken(token);
    if (state === 'ok') response.status(200).send(confirmVerificationPage(token));
    else if (state === 'expired') response.status(410).send(verificationProblemPage(accountMessages.verificationExpired));
    else response.status(404).send(verificationProblemPage(accountMessages.verificationInvalid));
  }

  /**
   * Confirms the address. From the page's form: a redirect to /customer/login?verified=true, or a page saying
   * what is wrong. From a script (JSON): the API's answers.
   */
  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() raw: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const fromForm = typeof request.is('application/x-www-form-urlencoded') === 'string';
    if (fromForm) {
      response.set(PAGE_HEADERS);
      const parsed = verifyEmailSchema.safeParse(raw);
      if (!parsed.success) {
        response.status(400).send(verificationProblemPage(accountMessages.verificationInvalid));
        return;
      }
      const outcome = await this.accounts.verifyEmail(parsed.data.token);
      if (outcome === 'ok') response.redirect(303, '/customer/login?verified=true');
      else if (outcome === 'expired') response.status(410).send(verificationProblemPage(accountMessages.verificationExpired));
      else response.status(404).send(verificationProblemPage(accountMessages.verificationInvalid));
      return;
    }
    const { token } = verifyEmailPipe.transform(raw);
    const outcome = await this.accounts.verifyEmail(token);
    if (outcome === 'expired') throw new HttpException({ message: accountMessages.verificationExpired }, HttpStatus.GONE);
    if (outcome === 'invalid') throw new HttpException({ message: accountMessages.verificationInvalid }, HttpStatus.NOT_FOUND);
    response.status(200).json({ message: accountMessages.emailVerified } satisfies MessageResponse);
  }

  @Post('resend-verification')
  @HttpCode(200)
  @UseGuards(CustomerGuard)
  async resendVerification(@Body(new NoBodyPipe()) _body: undefined, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<MessageResponse> {
    const outcome = await withRetryAfter(response, () => this.accounts.resendVerification(requireCustomer(request)));
    return { message: outcome === 'sent' ? accountMessages.verificationSent : accountMessages.alreadyVerified };
  }

  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(
    @Body(new ZodBodyPipe(forgotPasswordSchema)) body: ForgotPasswordRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await withRetryAfter(response, () => this.accounts.limitPublicForm('forgot-password', clientAddress(request)));
    await this.accounts.forgotPassword(body.email);
    return { message: accountMessages.forgotPasswordSent };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(
    @Body(new ZodBodyPipe(resetPasswordSchema)) body: ResetPasswordRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await withRetryAfter(response, () => this.accounts.limitPublicForm('reset-password', clientAddress(request)));
    const outcome = await this.accounts.resetPassword(body.token, body.password);
    if (outcome === 'expired') throw new HttpException({ message: accountMessages.resetExpired }, HttpStatus.GONE);
    if (outcome === 'invalid') throw new HttpException({ message: accountMessages.resetInvalid }, HttpStatus.BAD_REQUEST);
    return { message: accountMessages.passwordChanged };
  }
}

function withHeader(response: Response, error: TooManyRequestsException): TooManyRequestsException {
  response.setHeader('Retry-After', String(error.retryAfterSeconds));
  return error;
}

/** Runs the step; a rate-limit refusal leaves with its Retry-After header. */
async function withRetryAfter<T>(response: Response, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof TooManyRequestsException) throw withHeader(response, error);
    throw error;
  }
}
