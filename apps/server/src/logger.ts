import pino, { type DestinationStream, type Logger } from 'pino';
import { loggerOptions } from './http/logging';

export type { Logger };

/** The process's one logger: JSON lines on stdout (or a given stream), secrets redacted. */
export function createLogger(level: string, stream?: DestinationStream): Logger {
  return stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level));
}
