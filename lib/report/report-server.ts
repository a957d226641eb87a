/**
 * A report folder served on this machine only (127.0.0.1), for `xs2a-conformance show-report`: what index.html
 * links to (evidence files, bodies kept whole, areas.svg) opens as it does from the folder, without a browser's
 * file:// limits. Only regular files inside the folder are served, read-only; nothing is listed.
 */
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a request path names inside `root` (a real path), or undefined when it is outside it or not a regular file. */
export function reportFileOf(root: string, urlPath: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return undefined;
  }
  if (path.includes('\0')) return undefined;
  const wanted = join(root, path === '/' ? 'index.html' : path);
  try {
    const real = realpathSync(wanted);
    return real.startsWith(root + sep) && statSync(real).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Serves `dir` on 127.0.0.1 (`port` 0: a free one); resolves once it listens, with its address. */
export async function serveReport(dir: string, port: number): Promise<{ server: Server; url: string }> {
  const root = realpathSync(dir);
  const server = createServer((request, response) => {
    const file = request.method === 'GET' || request.method === 'HEAD' ? reportFileOf(root, request.url ?? '/') : undefined;
    if (!file) {
      response
        .writeHead(request.method === 'GET' || request.method === 'HEAD' ? 404 : 405, { 'content-type': 'text/plain; charset=utf-8' })
        .end('not a file of this report\n');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${bound}/` };
}
