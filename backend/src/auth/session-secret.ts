import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';

/** The generated secret's file in DATA_DIR. */
export const SESSION_SECRET_FILE = 'session-secret';

const MIN_LENGTH = 32;

/** For DATA_DIR=memory: one secret for the life of this process (its sessions do not outlive it either). */
let processSecret: string | undefined;

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

async function readSecretFile(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < MIN_LENGTH) {
    throw new Error(
      `${file} does not hold a session secret of at least ${MIN_LENGTH} characters. ` +
        'Delete it to have a new one generated (everyone logs in again), or set SESSION_SECRET.',
    );
  }
  const { mode } = await stat(file);
  if ((mode & 0o077) !== 0) {
    new Logger('SessionSecret').warn(`${file} was readable by other users; its mode is now 0600.`);
    await chmod(file, 0o600);
  }
  return secret;
}

/**
 * The secret that signs session cookies: SESSION_SECRET when set (required in production). Otherwise a random
 * one generated once and kept in the file DATA_DIR/session-secret (mode 0600), so a development install needs
 * no configuration and its sessions survive a restart; with DATA_DIR=memory, one per process. It is never
 * kept in the database that holds the sessions: whoever can read that database must not be able to sign a
 * cookie. (The pool argument is no longer used; it is accepted so that callers need not change.)
 */
export async function sessionSecret(config: Pick<AppConfig, 'SESSION_SECRET' | 'DATA_DIR'>, _pool?: unknown): Promise<string> {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  if (config.DATA_DIR === 'memory') {
    processSecret ??= randomBytes(32).toString('base64url');
    return processSecret;
  }
  const folder = resolve(config.DATA_DIR);
  const file = join(folder, SESSION_SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing) return existing;

  await mkdir(folder, { recursive: true, mode: 0o700 });
  // Written in full under a private name, then linked into place: link() fails if another process started
  // at the same moment got there first, and nobody ever reads a half-written file. The first one wins.
  // The draft name is unique per call, not per process: two starts in one process must not share (and delete) one draft.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.new`;
  await writeFile(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  const secret = await readSecretFile(file);
  if (!secret) throw new Error(`Could not create ${file}`);
  return secret;
}

/**
 * The secrets that are accepted, the current one first (the only one that signs): SESSION_SECRET_PREVIOUS after
 * it during a rotation.
 */
export async function sessionSecrets(
  config: Pick<AppConfig, 'SESSION_SECRET' | 'SESSION_SECRET_PREVIOUS' | 'DATA_DIR'>,
): Promise<[string, ...string[]]> {
  const current = await sessionSecret(config);
  const previous = config.SESSION_SECRET_PREVIOUS;
  return previous && previous !== current ? [current, previous] : [current];
}

/**
 * Keys derived from the accepted session secrets with `derive`, the current one's first (it alone signs or seals),
 * read once. A failed read (the secret file unreadable for a moment) is not kept: the next call tries again.
 */
export function sessionSecretKeys(
  config: Pick<AppConfig, 'SESSION_SECRET' | 'SESSION_SECRET_PREVIOUS' | 'DATA_DIR'>,
  derive: (secret: string) => Buffer,
): () => Promise<[Buffer, ...Buffer[]]> {
  let keys: Promise<[Buffer, ...Buffer[]]> | undefined;
  return () => {
    keys ??= sessionSecrets(config)
      .then(([current, ...previous]): [Buffer, ...Buffer[]] => [derive(current), ...previous.map(derive)])
      .catch((error: unknown) => {
        keys = undefined;
        throw error;
      });
    return keys;
  };
}
