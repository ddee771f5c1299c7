import { DataFolderError } from './db/embeddedPostgres';

/** Where start-up stopped: the sentence names the step. */
export type StartupStep = 'database' | 'app' | 'seed' | 'listen';

/**
 * One sentence saying why the portal could not start and what to do, never a stack trace (a
 * supervisor's log shows it as the reason; LOG_LEVEL=debug prints the trace as well).
 */
export function startupFailureMessage(
  step: StartupStep,
  error: unknown,
  where: { host: string; port: number },
): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const reason = typeof message === 'string' && message !== '' ? message : String(error);
  if (error instanceof DataFolderError) return error.message;
  if (step === 'listen' && code === 'EADDRINUSE') {
    return `The portal could not start: port ${where.port} on ${where.host} is already in use. Stop the program using it, or set PORT to a free port.`;
  }
  if (step === 'listen' && (code === 'EACCES' || code === 'EPERM')) {
    return `The portal could not start: it may not listen on port ${where.port} on ${where.host}. Choose a port above 1023 with PORT, or run it with the right to bind that port.`;
  }
  if (step === 'listen' && code === 'EADDRNOTAVAIL') {
    return `The portal could not start: ${where.host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.`;
  }
  const what: Record<StartupStep, string> = {
    database: 'The database could not be opened',
    app: 'The portal could not start',
    seed: 'The demo data could not be seeded',
    listen: 'The portal could not start listening',
  };
  return `${what[step]}: ${reason.replace(/\s+/g, ' ').trim()}`;
}
