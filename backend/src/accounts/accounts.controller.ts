import { Body, Controller, Get, HttpCode, HttpException, HttpStatus, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
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
  type VerifyEmailRequest,
  verifyEmailSchema,
} from '@ppr/contracts';
import type { Request, Response } from 'express';
import { ZodBodyPipe } from '../common/zod-validation.pipe';
import { NoBodyPipe } from '../common/no-body.pipe';
import { PassportService } from '../auth/passport.service';
import { PasswordSessions } from '../auth/password-login';
import { type CustomerPrincipal, CustomerGuard, currentCustomer, requireCustomer } from '../auth/principal';
import { PublicFormLimits } from '../auth/public-form-limit';
import { RateLimiter } from '../auth/rate-limiter';
import { type AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.tokens';
import {
  AccountsService,
  toCurrentCustomer,
  TooManyRequestsException,
  type VerificationOutcome,
  type VerificationProof,
} from './accounts.service';
import { CUSTOMER_LOCAL } from './customer-local.strategy';
import { registeredInSession, rememberRegistration } from './registration-session';
import { confirmVerificationPage, PAGE_HEADERS, verificationProblemPage } from './verification-page';

const verifyEmailPipe = new ZodBodyPipe(verifyEmailSchema);

/** What the request shows about who is verifying: its session's registrations and login, a typed password. */
function proofOf(request: Request, password?: string): VerificationProof {
  return {
    registeredInSession: registeredInSession(request.session),
    loggedInAs: currentCustomer(request)?.id ?? null,
    password,
  };
}

/** The customer account endpoints of SPEC section 7 and the verification and password-reset flows. */
@Controller('customer')
export class AccountsController {
  private readonly forms: PublicFormLimits;
  private readonly sessions: PasswordSessions;

  constructor(
    private readonly accounts: AccountsService,
    limiter: RateLimiter,
    passport: PassportService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.forms = new PublicFormLimits(limiter, config);
    this.sessions = new PasswordSessions(
      { passport, limiter, config },
      // A new session id, keeping what the guest session held (its tickets).
      { strategy: CUSTOMER_LOCAL, addressCounter: 'login', invalidCredentials: accountMessages.invalidCredentials, keepSessionInfo: true },
    );
  }

  @Post('register')
  @HttpCode(201)
  async register(
    @Body(new ZodBodyPipe(registerSchema)) body: RegisterRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await this.forms.consume('register', request);
    const { accountId, followUp } = await this.accounts.register(body);
    // This browser registered the account: its verification link completes here without a password.
    rememberRegistration(request.session, accountId);
    this.accounts.afterAnswer(response, 'Registration email', followUp);
    return { message: accountMessages.registered };
  }

  @Post('login')
  @HttpCode(200)
  async login(
    @Body(new ZodBodyPipe(customerLoginSchema)) body: CustomerLogin,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CurrentCustomer> {
    return toCurrentCustomer(await this.sessions.logIn<CustomerPrincipal>(body, request, response));
  }

  @Post('logout')
  @HttpCode(200)
  async logout(
    @Body(new NoBodyPipe()) _body: undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await this.sessions.end(request, response);
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

  /**
   * The emailed link: a page whose button confirms with a POST (a GET never changes anything). In a browser
   * that cannot show it registered the account, the form also asks for the account's password.
   */
  @Get('verify-email')
  async verifyEmailPage(@Query('token') token: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    response.set(PAGE_HEADERS);
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) {
      response.status(400).send(verificationProblemPage(accountMessages.verificationInvalid));
      return;
    }
    const page = await this.accounts.verificationPage(token, proofOf(request));
    if (page.state === 'ok') response.status(200).send(confirmVerificationPage(token, page));
    else if (page.state === 'expired') response.status(410).send(verificationProblemPage(accountMessages.verificationExpired));
    else response.status(404).send(verificationProblemPage(accountMessages.verificationInvalid));
  }

  /**
   * Confirms the address. From the page's form: a redirect to /customer/login?verified=true, or the page again
   * saying what is wrong. From a script (JSON): the API's answers.
   */
  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() raw: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const fromForm = typeof request.is('application/x-www-form-urlencoded') === 'string';
    if (!fromForm) {
      const body = verifyEmailPipe.transform(raw);
      const outcome = await withRetryAfter(response, () => this.verify(request, body));
      if (outcome !== 'ok') {
        const { status, message } = VERIFICATION_REFUSALS[outcome];
        throw new HttpException({ message } satisfies ApiError, status);
      }
      response.status(200).json({ message: accountMessages.emailVerified } satisfies MessageResponse);
      return;
    }
    response.set(PAGE_HEADERS);
    const parsed = verifyEmailSchema.safeParse(raw);
    if (!parsed.success) {
      response.status(400).send(verificationProblemPage(accountMessages.verificationInvalid));
      return;
    }
    let outcome: VerificationOutcome;
    try {
      outcome = await this.verify(request, parsed.data);
    } catch (error) {
      if (!(error instanceof TooManyRequestsException)) throw error;
      response.setHeader('Retry-After', String(error.retryAfterSeconds));
      response.status(429).send(verificationProblemPage((error.getResponse() as ApiError).message));
      return;
    }
    if (outcome === 'ok') {
      response.redirect(303, '/customer/login?verified=true');
      return;
    }
    const { status, message } = VERIFICATION_REFUSALS[outcome];
    if (outcome === 'needs-password' || outcome === 'wrong-password') {
      // The same form again, now asking for (or saying what was wrong with) the password.
      const page = await this.accounts.verificationPage(parsed.data.token, proofOf(request));
      if (page.state === 'ok') {
        response.status(status).send(confirmVerificationPage(parsed.data.token, { ...page, askPassword: true, problem: message }));
        return;
      }
    }
    response.status(status).send(verificationProblemPage(message));
  }

  private verify(request: Request, body: VerifyEmailRequest): Promise<VerificationOutcome> {
    return this.accounts.verifyEmail(body.token, proofOf(request, body.password));
  }

  @Post('resend-verification')
  @HttpCode(200)
  @UseGuards(CustomerGuard)
  async resendVerification(
    @Body(new NoBodyPipe()) _body: undefined,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    const { outcome, followUp } = await withRetryAfter(response, () => this.accounts.resendVerification(requireCustomer(request)));
    if (followUp) this.accounts.afterAnswer(response, 'Verification email', followUp);
    return { message: outcome === 'sent' ? accountMessages.verificationSent : accountMessages.alreadyVerified };
  }

  /** The same answer, in the same time, for every address: the lookup and the email happen after it. */
  @Post('forgot-password')
  @HttpCode(200)
  async forgotPassword(
    @Body(new ZodBodyPipe(forgotPasswordSchema)) body: ForgotPasswordRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageResponse> {
    await this.forms.consume('forgot-password', request);
    this.accounts.afterAnswer(response, 'Password reset email', this.accounts.forgotPassword(body.email));
    return { message: accountMessages.forgotPasswordSent };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(
    @Body(new ZodBodyPipe(resetPasswordSchema)) body: ResetPasswordRequest,
    @Req() request: Request,
  ): Promise<MessageResponse> {
    await this.forms.consume('reset-password', request);
    const outcome = await this.accounts.resetPassword(body.token, body.password);
    if (outcome === 'expired') throw new HttpException({ message: accountMessages.resetExpired }, HttpStatus.GONE);
    if (outcome === 'invalid') throw new HttpException({ message: accountMessages.resetInvalid }, HttpStatus.BAD_REQUEST);
    return { message: accountMessages.passwordChanged };
  }
}

/** The status and message of each way a verification can be refused. */
const VERIFICATION_REFUSALS: Record<Exclude<VerificationOutcome, 'ok'>, { readonly status: HttpStatus; readonly message: string }> = {
  invalid: { status: HttpStatus.NOT_FOUND, message: accountMessages.verificationInvalid },
  expired: { status: HttpStatus.GONE, message: accountMessages.verificationExpired },
  'needs-password': { status: HttpStatus.FORBIDDEN, message: accountMessages.verificationNeedsPassword },
  'wrong-password': { status: HttpStatus.UNAUTHORIZED, message: accountMessages.verificationWrongPassword },
  'address-taken': { status: HttpStatus.CONFLICT, message: accountMessages.verificationAddressTaken },
};

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
