// How long the bank waits for a client, and how many connections one client may hold open: a client that
// opens connections and sends nothing, trickles its headers or its body, or leaves a connection idle does not
// hold the bank's sockets for ever (slowloris), and one client cannot take all of them.
import type { Server } from 'node:https';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** The TLS handshake done within this time of the connection (a client that connects and sends nothing). */
  handshakeMs: number;
  /** A request's headers complete within this time (headers trickled, or none sent after the handshake). */
  headersMs: number;
  /** A whole request, body included, received within this time (a body trickled). */
  requestMs: number;
  /** A connection that carries nothing either way for this long is closed (idle between requests too). */
  idleMs: number;
  /** Connections one client address may hold open at once; more are closed as they arrive. */
  perClient: number;
}

/**
 * Limits of the bank: generous for any TPP (a request takes milliseconds; a run of the whole suite, four
 * workers and their browsers, holds under 40 connections), tight for a client that only holds sockets.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  handshakeMs: 10_000,
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 30_000,
  perClient: 128,
};

/** How often Node checks the header and request deadlines: they are met within this much. */
const DEADLINE_CHECK_MS = 1_000;

/** Options of https.createServer (TLS and HTTP deadlines) and of fastify (idle and keep-alive) for these limits. */
export function serverOptions(limits: ConnectionLimits) {
  return {
    https: {
      handshakeTimeout: limits.handshakeMs,
      headersTimeout: Math.min(limits.headersMs, limits.requestMs),
      connectionsCheckingInterval: Math.min(DEADLINE_CHECK_MS, limits.headersMs),
    },
    fastify: { connectionTimeout: limits.idleMs, keepAliveTimeout: limits.idleMs, requestTimeout: limits.requestMs },
  } as const;
}

export interface ConnectionCount {
  /** Connections open now. */
  open(): number;
  /** The most connections one client held at once. */
  peakPerClient(): number;
  /** Connections closed on arrival because their client held too many. */
  refused(): number;
}

/** Closes, as they arrive and before any TLS work, connections beyond `perClient` from one address. */
export function capConnectionsPerClient(server: Server, perClient: number): ConnectionCount {
  const byClient = new Map<string, number>();
  let open = 0;
  let peak = 0;
  let refused = 0;
  // Before the TLS server's own listener: a connection refused costs no handshake.
  server.prependListener('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const held = byClient.get(client) ?? 0;
    if (held >= perClient) {
      refused += 1;
      socket.destroy();
      return;
    }
    byClient.set(client, held + 1);
    open += 1;
    peak = Math.max(peak, held + 1);
    socket.once('close', () => {
      open -= 1;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left === 0) byClient.delete(client);
      else byClient.set(client, left);
    });
  });
  return { open: () => open, peakPerClient: () => peak, refused: () => refused };
}
