import { Logger, type LogLevel } from '@nestjs/common';
import { logLevelsUpTo } from '../common/log-levels';
import { type AppConfig, ConfigError, loadConfig } from '../config/config';

/**
 * Sets the configured log level (warn unless LOG_LEVEL is set, see runCliMain) for everything that logs in a
 * tool that builds no Nest application, or before it builds one: opening and migrating the database logs too.
 * Returns the levels, for a Nest context the tool creates.
 */
export function useConfiguredLogLevel(config: AppConfig): LogLevel[] {
  const levels = logLevelsUpTo(config.LOG_LEVEL);
  Logger.overrideLogger(levels);
  return levels;
}

/** A mistake in the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/**
 * Runs a CLI's `run` as the process's main: configuration from the environment (LOG_LEVEL `warn` unless set, so
 * start-up logs do not bury the report), output to stdout, and the exit code it answers. A usage mistake exits 2
 * with the usage; a bad configuration or any other failure is logged and exits 1.
 */
export function runCliMain(
  name: string,
  usage: string,
  run: (args: readonly string[], config: AppConfig, write: (line: string) => void) => Promise<number>,
): void {
  const logger = new Logger(name);
  let code: Promise<number>;
  try {
    const env = process.env.LOG_LEVEL ? process.env : { ...process.env, LOG_LEVEL: 'warn' };
    code = run(process.argv.slice(2), loadConfig(env), (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    code = Promise.reject(error);
  }
  code.then(
    (exitCode) => {
      process.exitCode = exitCode;
    },
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`${error.message}\n\n${usage}\n`);
        process.exitCode = 2;
      } else {
        logger.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      }
    },
  );
}
