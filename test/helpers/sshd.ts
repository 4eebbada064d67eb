/**
 * A private OpenSSH sshd for tests: its own host key, config and authorized_keys in a temp
 * folder, on a free port of 127.0.0.1, serving SFTP (internal-sftp) to the current user with a
 * key made for it. Stopped by the test (by its pid); never the machine's own sshd.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { requireBinary } from './binaries.js';
import { freePort } from './redis-server.js';

export const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  host: string;
  port: number;
  username: string;
  /** The user's private key (OpenSSH format). */
  privateKey: string;
  /** The server's public key line ("ssh-ed25519 AAAA..."). */
  hostPublicKey: string;
  /** Its fingerprint as `ssh-keygen -lf` prints it. */
  hostFingerprint: string;
  dir: string;
  stop(): Promise<void>;
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
}

async function answers(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startSshd(): Promise<TestSshd> {
  requireBinary('sshd', SSHD);
  requireBinary('ssh-keygen');
  const dir = mkdtempSync(join(tmpdir(), 'ferry-sshd-'));
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'user_key'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  // sshd checks for its privilege separation folder even when it does not use it.
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host_key')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'StrictModes no',
    'UsePAM no',
    'Subsystem sftp internal-sftp',
    'LogLevel ERROR',
  ].join('\n');
  writeFileSync(join(dir, 'sshd_config'), `${config}\n`);
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      const how =
        child.exitCode === null ? 'did not answer within 10 s' : `exited ${child.exitCode}`;
      throw new Error(`sshd ${how} on port ${port}: ${stderr.trim() || '(nothing on stderr)'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const hostPublicKey = readFileSync(join(dir, 'host_key.pub'), 'utf8').trim();
  const hostFingerprint = execFileSync('ssh-keygen', ['-lf', join(dir, 'host_key.pub')], {
    encoding: 'utf8',
  }).split(' ')[1]!;
  return {
    host: '127.0.0.1',
    port,
    username: userInfo().username,
    privateKey: readFileSync(join(dir, 'user_key'), 'utf8'),
    hostPublicKey,
    hostFingerprint,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
