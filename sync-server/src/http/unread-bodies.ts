/**
 * Refuse before reading (docs/server.md#security, docs/decisions/0015-isolation.md): a request the
 * server will not serve costs it its headers, never its body.
 *
 * - `closeUnreadBodies`: any answer sent while the request's body is still arriving (a 401 from the
 *   auth hook, a 413, a 429 below) closes the connection. Node would otherwise read the rest of the
 *   body to keep the connection alive — 2 GB from one anonymous client — and so would a reply's
 *   keep-alive; with `Connection: close` it ends the socket once the answer is written instead.
 * - `refuseOversizedBodies`: the route's body limit decided from Content-Length, before anything
 *   else is done for the request. (A chunked body has no length: Fastify's parser counts its bytes
 *   and stops at the limit, and the 413 then closes the connection as above.)
 * - `limitConcurrentUploads`: bodies still arriving, at most so many per author and per address at a
 *   time; one more answers 429 before its body is read.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { ERROR_CODES, GENERIC_MESSAGES } from '@chronicler/schema';

/** Whether the request has a body the parser has not seen the end of yet. */
export function bodyStillArriving(request: FastifyRequest): boolean {
  const raw = request.raw;
  // `complete` is the HTTP parser's: false until it has seen the end of the message. (An injected
  // request — tests, a batch's entries — has its whole body in memory and no such flag.)
  if (raw.complete !== false) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Marks an answer given before its request's body was read to close the connection. Injected
 * requests (tests) have no socket to close; the header is set all the same.
 */
export const closeUnreadBodies: onSendHookHandler = (request, reply, payload, done) => {
  if (bodyStillArriving(request)) {
    void reply.header('connection', 'close');
    // Node ends a `Connection: close` socket once the answer is written (destroySoon); a client
    // that never reads the answer must not hold it open either.
    // Once the answer is written, Node drains the unread body until the client closes: stop reading
    // instead (the kernel's window then holds the client back), and close it after a second.
    reply.raw.once('finish', () => {
      const socket = request.raw.socket as { destroyed?: boolean; destroy?: () => void; pause?: () => void } | null;
      socket?.pause?.();
      const timer = setTimeout(() => socket?.destroyed === false && socket.destroy?.(), 1_000);
      timer.unref();
    });
  }
  done(null, payload);
};

/** The 413 for a body longer than the route takes, from its Content-Length alone. */
export const refuseOversizedBodies: onRequestHookHandler = (request, reply, done) => {
  const declared = request.raw.headers['content-length'];
  const limit = request.routeOptions.bodyLimit;
  if (declared !== undefined && limit !== undefined && Number(declared) > limit) {
    void reply.status(413).send({ message: GENERIC_MESSAGES.payloadTooLarge, code: ERROR_CODES.payloadTooLarge });
    return;
  }
  done();
};

export interface UploadLimits {
  /** Bodies one signed-in author may be sending at once. */
  perAuthor: number;
  /** Bodies one address may be sending at once (every author behind it, and anonymous callers). */
  perAddress: number;
}

/** A browser keeps at most 6 connections to one origin; a few tabs and a stalled link fit under these. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { perAuthor: 8, perAddress: 32 };

export const TOO_MANY_UPLOADS_MESSAGE = 'Too many uploads at once. Please wait for one to finish and try again.';

/** Counts of something in progress, per key; a key whose count falls to zero is forgotten. */
class InFlight {
  private readonly counts = new Map<string, number>();

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.count(key) + 1);
  }

  remove(key: string): void {
    const left = this.count(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

/** Requests whose bodies are still arriving, per key; a body the parser has seen the end of no longer counts. */
class Arriving {
  private readonly requests = new Map<string, Set<IncomingMessage>>();

  /** Bodies still arriving under `key` now (those that arrived since are let go here). */
  count(key: string): number {
    const set = this.requests.get(key);
    if (!set) return 0;
    for (const raw of set) if (raw.complete !== false || raw.destroyed) set.delete(raw);
    if (set.size === 0) this.requests.delete(key);
    return set.size;
  }

  add(key: string, raw: IncomingMessage): void {
    let set = this.requests.get(key);
    if (!set) this.requests.set(key, (set = new Set()));
    set.add(raw);
  }

  remove(key: string, raw: IncomingMessage): void {
    const set = this.requests.get(key);
    if (!set) return;
    set.delete(raw);
    if (set.size === 0) this.requests.delete(key);
  }
}

/**
 * Bodies still arriving over the network are counted per author and per address. "Arriving" is
 * the HTTP parser's view (`complete` false): the other requests counted were parsed as far as
 * their sockets have delivered, so a body that came whole but is not read yet (queued behind the
 * hooks) no longer counts; only this request may be counted early, while its own packet is still
 * being parsed.
 */
export function limitConcurrentUploads(limits: UploadLimits = DEFAULT_UPLOAD_LIMITS): onRequestHookHandler {
  const byAuthor = new Arriving();
  const byAddress = new Arriving();
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!bodyStillArriving(request)) return done();
    const raw = request.raw;
    const author = request.user?.id;
    const address = request.ip;
    if ((author !== undefined && byAuthor.count(author) >= limits.perAuthor) || byAddress.count(address) >= limits.perAddress) {
      void reply.status(429).header('retry-after', '1').send({ message: TOO_MANY_UPLOADS_MESSAGE, code: ERROR_CODES.rateLimited });
      return;
    }
    if (author !== undefined) byAuthor.add(author, raw);
    byAddress.add(address, raw);
    const release = () => {
      if (author !== undefined) byAuthor.remove(author, raw);
      byAddress.remove(address, raw);
    };
    raw.once('end', release);
    raw.once('close', release);
    reply.raw.once('close', release);
    done();
  };
}

/**
 * Password work (scrypt, ~128 MiB and a libuv thread for a tenth of a second each) in progress per
 * address: a client firing logins in parallel gets 429 at once instead of queueing everyone's
 * sign-in behind its hashes. The auth plugin runs it for the routes that hash (login, register,
 * password change).
 */
export interface PasswordWorkLimits {
  perAddress: number;
  /** All addresses together: past this many waiting hashes, the next is refused too. */
  total: number;
}

export const DEFAULT_PASSWORD_WORK_LIMITS: PasswordWorkLimits = { perAddress: 2, total: 16 };

export function limitConcurrentPasswordWork(limits: PasswordWorkLimits = DEFAULT_PASSWORD_WORK_LIMITS): onRequestHookHandler {
  const byAddress = new InFlight();
  let total = 0;
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const address = request.ip;
    if (byAddress.count(address) >= limits.perAddress || total >= limits.total) {
      void reply.status(429).header('retry-after', '1').send({ message: GENERIC_MESSAGES.rateLimited, code: ERROR_CODES.rateLimited });
      return;
    }
    byAddress.add(address);
    total += 1;
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      byAddress.remove(address);
      total -= 1;
    };
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
    done();
  };
}
