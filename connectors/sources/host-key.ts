/**
 * The SFTP server's host key, checked before anything is sent or read: `hostKey` is its public
 * key as OpenSSH writes it ("ssh-ed25519 AAAA... comment", as in known_hosts or
 * /etc/ssh/ssh_host_ed25519_key.pub) or its SHA256 fingerprint ("SHA256:..." as `ssh-keygen -lf`
 * prints it).
 */
import { createHash } from 'node:crypto';

export interface ExpectedHostKey {
  /** "SHA256:<base64 without padding>" */
  fingerprint: string;
  /** The key type, when a public key was given: the server is asked for a key of that type. */
  type?: string;
}

/** OpenSSH's fingerprint of a key in its wire format. */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** Parses `hostKey`; a plain Error names what was expected (the loader adds the key's path). */
export function parseHostKey(text: string): ExpectedHostKey {
  const value = text.trim();
  const fp = /^SHA256:([A-Za-z0-9+/]{43})=?$/.exec(value);
  if (fp) return { fingerprint: `SHA256:${fp[1]}` };
  // known_hosts lines start with the host names: the key type is the first field that looks like one.
  const fields = value.split(/\s+/);
  const at = fields.findIndex((f) => /^(ssh-|ecdsa-|sk-)/.test(f));
  const blob = at >= 0 ? fields[at + 1] : undefined;
  if (at >= 0 && blob && /^[A-Za-z0-9+/]+=*$/.test(blob)) {
    const key = Buffer.from(blob, 'base64');
    const typeLength = key.length >= 4 ? key.readUInt32BE(0) : 0;
    const type = key.subarray(4, 4 + typeLength).toString('latin1');
    if (type === fields[at]) return { fingerprint: fingerprintOf(key), type };
  }
  throw new Error(
    'hostKey: expected the server\'s public key ("ssh-ed25519 AAAA...") or its fingerprint ("SHA256:" and 43 base64 characters, from `ssh-keyscan HOST | ssh-keygen -lf -`)',
  );
}
