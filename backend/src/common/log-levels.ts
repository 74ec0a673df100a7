import type { LogLevel } from '@nestjs/common';

/** Nest's log levels, from the most to the least severe. */
const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** The levels that are logged when LOG_LEVEL is `level`: that one and every more severe one. */
export function logLevelsUpTo(level: LogLevel): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}
