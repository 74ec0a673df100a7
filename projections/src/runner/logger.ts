/** Where the runner reports; Nest's `Logger` fits. */
export interface RunnerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
