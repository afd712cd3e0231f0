import type { FastifyInstance } from 'fastify';

export interface LingeringCloseOptions {
  /** Most bytes of a refused body read and thrown away so the client can see the answer. */
  maxDrainBytes: number;
  /** Longest time a refused body is read before the connection is cut. */
  maxDrainMs: number;
}

/**
 * A body over the limit is refused before it is read (413). Fastify then closes the connection at once, and a client
 * still sending gets a reset that can arrive before it has read the answer: fetch reports "fetch failed" (EPIPE)
 * instead of the clear 413. Like nginx's lingering close, the rest of the body is read and discarded — up to
 * `maxDrainBytes` and `maxDrainMs`, after which the connection is cut as before — so the client reads the 413.
 */
export function registerLingeringClose(app: FastifyInstance, options: LingeringCloseOptions): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (reply.statusCode !== 413 || raw.complete || raw.destroyed) return payload;
    const declared = Number(request.headers['content-length']);
    // A body declared bigger than we are willing to read is cut off straight away, as Fastify would.
    if (Number.isFinite(declared) && declared > options.maxDrainBytes) return payload;
    // 'connection: close' makes Node end the socket as soon as the answer is written; the drain below keeps it open
    // until the body has arrived, and the connection can then serve the client's next request.
    reply.removeHeader('connection');
    let drained = 0;
    const cut = () => raw.socket?.destroy();
    const timer = setTimeout(cut, options.maxDrainMs);
    timer.unref();
    raw.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > options.maxDrainBytes) cut();
    });
    raw.once('end', () => clearTimeout(timer));
    raw.once('close', () => clearTimeout(timer));
    raw.resume();
    return payload;
  });
}
