import { BadRequestException } from '@nestjs/common';
import { accountMessages, type ApiError } from '@ppr/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes), above OWASP's minimum. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no account, so the answer time does not tell
 * whether an account exists.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('no account has this password');
  await verifyPassword(await dummyHash, password);
  return false;
}

/**
 * How many of the most common passwords are refused. The list is zxcvbn-ts's `passwords-common` (ranked by
 * how often each appeared in leaked password sets, all lower case), maintained with the library rather than
 * typed here; its first 10,000 entries are the ones attackers try first.
 */
export const REFUSED_COMMON_PASSWORDS = 10_000;

/**
 * Who the password guards. An admin's opens the back office (every customer's details, refunds, marketing to
 * the whole list): it is checked against the whole list (about 49,000 entries; `admin123` is number 12,412),
 * which an online guesser limited to a few attempts per window never gets through, but an offline one does.
 */
export type PasswordStrictness = 'customer' | 'admin';

const lists: Partial<Record<PasswordStrictness, ReadonlySet<string>>> = {};

function commonPasswords(strictness: PasswordStrictness): ReadonlySet<string> {
  const all = dictionary['passwords-common'];
  return (lists[strictness] ??= new Set(strictness === 'admin' ? all : all.slice(0, REFUSED_COMMON_PASSWORDS)));
}

/** Who the password is for: a password equal to one of these is the first thing an attacker tries. */
export interface PasswordOwner {
  readonly username: string;
  readonly email: string;
}

function normalised(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase();
}

/**
 * Why a new password is refused, or null when it is acceptable. The length rule stays in the request schemas
 * (the spec's 'Password must be at least 6 characters' for customers, 8 for admins); this adds what a schema
 * cannot know: the owner's username and address, and the list of common passwords. Comparisons ignore case
 * and surrounding spaces ('Password ' is as weak as 'password'). Reusable for any account kind (the admin
 * change-password endpoint calls it with the admin's username and email).
 */
export function passwordProblem(password: string, owner: PasswordOwner, strictness: PasswordStrictness = 'customer'): string | null {
  const candidate = normalised(password);
  if (candidate === '' || new Set(password).size === 1) return accountMessages.passwordOneCharacter;
  const email = normalised(owner.email);
  const localPart = email.split('@')[0] ?? '';
  if (candidate === normalised(owner.username) || candidate === email || candidate === localPart) {
    return accountMessages.passwordIsIdentity;
  }
  if (commonPasswords(strictness).has(candidate)) return accountMessages.passwordTooCommon;
  return null;
}

/** A 400 in the API's error shape (`errors` names the field) when the new password is refused. */
export function assertAcceptablePassword(
  password: string,
  owner: PasswordOwner,
  path = 'password',
  strictness: PasswordStrictness = 'customer',
): void {
  const problem = passwordProblem(password, owner, strictness);
  if (problem !== null) {
    throw new BadRequestException({ message: problem, errors: [{ path, message: problem }] } satisfies ApiError);
  }
}
