/**
 * Bodies streamed at a listening app over a raw socket, counting what the server read: how the
 * tests show a refused body is not read (docs/server.md#security "Refuse before reading").
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const MiB = 1024 * 1024;
/** The client gives up streaming after this much: a server that drains would read all of it. */
export const CLIENT_BOUND = 64 * MiB;

export interface Listening {
  port: number;
  /** Bytes the server read on each connection it accepted. */
  serverSockets: net.Socket[];
}

export async function listen(app: FastifyInstance): Promise<Listening> {
  const serverSockets: net.Socket[] = [];
  app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, serverSockets };
}

export interface Streamed {
  answer: string;
  /** Whether the connection was closed (by the server) before the client's bound was sent. */
  closedEarly: boolean;
}

/**
 * Sends `head` and then zero bytes (raw, or as 64 KiB chunks of a chunked body) as fast as the
 * socket takes them, until the connection closes or CLIENT_BOUND is sent.
 */
export function streamBody(port: number, head: string, chunked: boolean): Promise<Streamed> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const chunk = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
    let sent = 0;
    let answer = '';
    let closed = false;
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      closed = true;
      resolve({ answer, closedEarly: sent < CLIENT_BOUND });
    });
    const pump = () => {
      while (!closed && sent < CLIENT_BOUND) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      if (!closed) {
        // Bound reached: the server read (or is reading) everything. Give it a moment to answer, then stop.
        setTimeout(() => {
          resolve({ answer, closedEarly: false });
          socket.destroy();
        }, 500);
      }
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

export const readByServer = (listening: Listening) => Math.max(...listening.serverSockets.map((s) => s.bytesRead));
