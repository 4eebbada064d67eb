/**
 * Messages between the owner of the state and a serving process, on a Unix domain socket: what is
 * sent in one event-loop turn goes as one line (a JSON array of messages, newline-terminated),
 * written once the turn ends (setImmediate). One write and one parse per turn, not per request.
 */
import type { Socket } from 'node:net';

export class LineChannel<Out, In> {
  private queue: Out[] = [];
  private scheduled = false;
  private partial = '';

  constructor(
    private readonly socket: Socket,
    onMessage: (message: In) => void,
  ) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop()!;
      for (const line of lines) for (const message of JSON.parse(line) as In[]) onMessage(message);
    });
  }

  send(message: Out): void {
    this.queue.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(batch)}\n`);
  }
}
