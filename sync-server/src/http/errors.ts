/**
 * Errors as `{message, code}` with no stack, SQL or file path (docs/server.md#security). Route code
 * throws HttpError; anything else becomes a logged 500 with a generic message.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type ApiErrorBody, ERROR_CODES, type ErrorCode, GENERIC_MESSAGES } from '@chronicler/schema';
import { isStorageUnavailable, isUnstorableText } from '../db/dialect.ts';
import { WorkerCrashedError } from '../workers/pool.ts';

/**
 * The answer while the database cannot be reached (PostgreSQL restarting, docs/server.md#postgresql):
 * a 503 the client retries, its work kept on the device meanwhile. Never the database's own text.
 */
export const STORAGE_UNAVAILABLE_MESSAGE = 'The server cannot reach its database for the moment. Your work is kept on this device; please try again shortly.';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ApiErrorBody {
    return this.fields ? { message: this.message, code: this.code, fields: this.fields } : { message: this.message, code: this.code };
  }
}

export const notFound = () => new HttpError(404, ERROR_CODES.notFound, GENERIC_MESSAGES.notFound);
export const unauthenticated = () => new HttpError(401, ERROR_CODES.unauthenticated, GENERIC_MESSAGES.unauthenticated);

/** Turns zod issues into the first message plus a per-field map. */
export function validationError(issues: ReadonlyArray<{ path: PropertyKey[] | ReadonlyArray<PropertyKey>; message: string }>): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = issues[0]?.message ?? 'Invalid request';
  return new HttpError(422, ERROR_CODES.validation, first, fields);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: String(v.instancePath ?? '').split('/').filter(Boolean),
        message: v.message ?? 'Invalid request',
      }));
      return reply.status(422).send(validationError(issues).toBody());
    }
    if (isUnstorableText(error)) {
      return reply.status(400).send({ message: 'Invalid request', code: ERROR_CODES.badRequest });
    }
    if (error instanceof WorkerCrashedError) {
      // A worker died under this request's work (workers/pool.ts): this request fails, nothing else.
      request.log.error({ task: error.task }, 'worker crashed');
      return reply.status(503).header('retry-after', '5').send({ message: error.message, code: ERROR_CODES.internal });
    }
    if (isStorageUnavailable(error)) {
      request.log.warn({ code: (error as { code?: string }).code }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ message: STORAGE_UNAVAILABLE_MESSAGE, code: ERROR_CODES.internal });
    }
    const fe = error as FastifyError;
    const status = fe.statusCode ?? 500;
    if (status === 413 || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: GENERIC_MESSAGES.payloadTooLarge, code: ERROR_CODES.payloadTooLarge });
    }
    if (status === 415 || fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ message: GENERIC_MESSAGES.unsupportedMediaType, code: ERROR_CODES.unsupportedMediaType });
    }
    if (status === 429) {
      return reply.status(429).send({ message: GENERIC_MESSAGES.rateLimited, code: ERROR_CODES.rateLimited });
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, empty body with a JSON content type, bad headers: the caller's mistake.
      const message = fe.code?.startsWith('FST_ERR_CTP') ? GENERIC_MESSAGES.invalidJson : 'Invalid request';
      return reply.status(status).send({ message, code: ERROR_CODES.badRequest });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: GENERIC_MESSAGES.internal, code: ERROR_CODES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ message: GENERIC_MESSAGES.notFound, code: ERROR_CODES.notFound });
  });
}
