/**
 * A request body must arrive within `timeoutMs` of the request's start (docs/server.md#security): a
 * client trickling a byte every few seconds would otherwise hold a connection and its buffer for
 * as long as it likes. (Node's own `requestTimeout` does not cut a body once the request has been
 * handed to the application, so the cut is made here.) Bodiless requests and long answers (SSE)
 * are not affected: the timer only acts while the request is still incomplete.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@chronicler/schema';

export const SLOW_BODY_MESSAGE = 'The request took too long to arrive';

export function cutSlowBodies(timeoutMs: number) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const raw = request.raw;
    // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3):
    // most reads. Arming a timer and two listeners for them cost ~3 µs of a read.
    const length = raw.headers['content-length'];
    const bodiless = raw.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
    if (raw.complete || bodiless) return done();
    const timer = setTimeout(() => {
      if (raw.complete) return;
      if (!reply.sent) {
        void reply.status(408).header('connection', 'close').send({ message: SLOW_BODY_MESSAGE, code: ERROR_CODES.badRequest });
      }
      // The rest of the body is not waited for.
      // (An injected request — tests — has a socket without destroy.)
      setImmediate(() => raw.socket?.destroy?.());
    }, timeoutMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  };
}
