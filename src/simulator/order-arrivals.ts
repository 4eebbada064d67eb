/**
 * `--orders-per-minute N`: orders keep arriving at that rate. A timer ticks a few times per
 * expected order (at most once a second, at least every 50 ms) and adds the orders due since the
 * start, so the rate holds on average whatever the timer's jitter.
 */
export class OrderArrivals {
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;
  private added = 0;

  constructor(
    private readonly perMinute: number,
    private readonly add: (count: number) => void,
  ) {}

  start(): void {
    this.stop();
    if (this.perMinute <= 0) return;
    this.startedAt = performance.now();
    this.added = 0;
    const every = Math.min(1000, Math.max(50, 60_000 / this.perMinute));
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  private tick(): void {
    const due = Math.floor(((performance.now() - this.startedAt) * this.perMinute) / 60_000);
    if (due > this.added) {
      this.add(due - this.added);
      this.added = due;
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
