/** The simulator as a process of its own, for benchmarks that measure only Ferry's process. */
import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../src/config/load-config.js';

export async function startSimulatorProcess(
  args: string[] = [],
): Promise<{ url: string; pid: number | undefined; stop(): void }> {
  const child = spawn(
    process.execPath,
    ['src/cli/ferry.js', 'simulator', '--port', '0', '--json', ...args],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  for await (const chunk of child.stdout) {
    out += String(chunk);
    if (out.lastIndexOf('}') > 0) break;
  }
  const { url } = JSON.parse(out) as { url: string };
  return { url, pid: child.pid, stop: () => child.kill('SIGTERM') };
}
