/**
 * A serving process forwards what it does not answer itself (admin routes, reads, OpenAPI, the
 * token endpoint, refusals before a write is planned) to the owner's HTTP server on a Unix socket,
 * which answers it as one process does; the answer comes back as it is. A connection the owner
 * destroys (a reset fault) is destroyed towards the client too.
 */
import { Agent, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { destroyConnection } from './http-io.js';

export type Forward = (req: IncomingMessage, res: ServerResponse, body?: string) => Promise<void>;

/** Forwards to the HTTP server at `socketPath`; `body`: the request's body, already read. */
export function forwardTo(socketPath: string): Forward {
  const agent = new Agent({ keepAlive: true });
  return (req, res, body) =>
    new Promise<void>((resolve) => {
      const headers = { ...req.headers };
      // A body already read is sent again as one piece, its length counted anew.
      if (body !== undefined) delete headers['content-length'];
      const fail = () => {
        destroyConnection(req, res);
        resolve();
      };
      const upstream = request(
        { agent, socketPath, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', resolve);
          answer.on('aborted', fail);
          answer.on('error', fail);
        },
      );
      upstream.on('error', fail);
      if (body === undefined) req.pipe(upstream);
      else upstream.end(body);
    });
}
