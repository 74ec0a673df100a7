import { DuplicateRowInsertError } from '@ppr/projections';
import { isTransientError } from './transient-errors';

/** An error as node-postgres reports one from the server: a message and a SQLSTATE. */
const pgError = (code: string, message = `server error ${code}`) => Object.assign(new Error(message), { code });
/** An error as Node's net module reports one. */
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });

describe('isTransientError: retry, or stop the projection', () => {
  it.each([
    ['08006 connection failure', pgError('08006')],
    ['08001 cannot connect now', pgError('08001')],
    ['53300 too many connections', pgError('53300')],
    ['53100 disk full', pgError('53100')],
    ['57P01 admin shutdown', pgError('57P01')],
    ['57014 query canceled', pgError('57014')],
    ['40001 serialization failure', pgError('40001')],
    ['40P01 deadlock', pgError('40P01')],
  ])('retries a connection, resource or serialization failure: %s', (_name, error) => {
    expect(isTransientError(error)).toBe(true);
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'])('retries a socket error: %s', (code) => {
    expect(isTransientError(socketError(code))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'timeout exceeded when trying to connect',
  ])("retries node-postgres' connection-lost error without a code: %s", (message) => {
    expect(isTransientError(new Error(message))).toBe(true);
  });

  it('looks into what an error wraps: a cause, the attempts of an AggregateError', () => {
    expect(isTransientError(new Error('batch failed', { cause: pgError('08006') }))).toBe(true);
    expect(isTransientError(new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'connect failed'))).toBe(true);
    expect(isTransientError(new Error('batch failed', { cause: pgError('23505') }))).toBe(false);
  });

  it.each([
    ['23505 unique violation', pgError('23505', 'duplicate key value violates unique constraint "tickets_pkey"')],
    ['23502 not-null violation', pgError('23502')],
    ['23514 check violation', pgError('23514')],
    ['22P02 invalid text representation', pgError('22P02')],
    ['42P01 undefined table', pgError('42P01')],
    ['40002 integrity constraint (not a serialization failure)', pgError('40002')],
    ['XX000 internal error', pgError('XX000')],
  ])('stops on anything else from the server: %s', (_name, error) => {
    expect(isTransientError(error)).toBe(false);
  });

  it('stops on errors without a code: a row inserted twice, a bug, a value that is not an error', () => {
    expect(isTransientError(new DuplicateRowInsertError('tickets', 7, 1))).toBe(false);
    expect(isTransientError(new TypeError("Cannot read properties of undefined (reading 'ticketId')"))).toBe(false);
    expect(isTransientError('Connection terminated')).toBe(false);
    expect(isTransientError(null)).toBe(false);
  });
});
