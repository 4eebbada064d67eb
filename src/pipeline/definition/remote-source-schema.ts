/**
 * `source.sftp` and `source.s3` (docs/CONNECTORS.md, SFTP and S3): files on an SFTP server or
 * objects in an S3 bucket. Secrets are best given as `${NAME}` (read from NAME or the file
 * NAME_FILE names).
 */
import { z } from 'zod';
import { parseHostKey } from '../../../connectors/index.js';

const PRIVATE_KEY = /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

export const sftpSourceSchema = z
  .strictObject({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(22),
    username: z.string().min(1),
    password: z.string().min(1).optional(),
    /** The private key's text (OpenSSH or PEM), e.g. `${SFTP_KEY}` with SFTP_KEY_FILE. */
    privateKey: z
      .string()
      .refine((k) => PRIVATE_KEY.test(k.trimStart()), {
        message:
          'expected the text of a private key (-----BEGIN ... PRIVATE KEY-----); to read it from a file write "${NAME}" and set NAME_FILE to the file',
      })
      .optional(),
    /** Unlocks an encrypted privateKey. */
    passphrase: z.string().min(1).optional(),
    /** The server's public key ("ssh-ed25519 AAAA...") or its fingerprint ("SHA256:..."). */
    hostKey: z.string().superRefine((key, ctx) => {
      try {
        parseHostKey(key);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          message: (error as Error).message.replace(/^hostKey: /, ''),
        });
      }
    }),
    /** A file; with `pattern`, a folder whose matching files are read in name order. */
    path: z.string().min(1),
    pattern: z.string().min(1).optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.password === undefined) === (s.privateKey === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'expected one of password or privateKey' });
    }
    if (s.passphrase !== undefined && s.privateKey === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['passphrase'],
        message: 'passphrase goes with privateKey',
      });
    }
  });

export const s3SourceSchema = z
  .strictObject({
    bucket: z.string().min(1),
    /** Keys start with it; the part up to its last "/" is the folder (archive folders go there). */
    prefix: z.string().default(''),
    /** A glob matched against the name after the folder (default *). */
    pattern: z.string().min(1).optional(),
    /** An S3-compatible store (MinIO, Ceph...): default AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL. */
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    /** Default AWS_REGION, else us-east-1. */
    region: z.string().min(1).optional(),
    /** Path-style addresses (endpoint/bucket/key); default: true when an endpoint is set. */
    forcePathStyle: z.boolean().optional(),
    /** Credentials as `${NAME}` values; without them the standard AWS chain (environment, profile, role). */
    accessKeyId: z.string().min(1).optional(),
    secretAccessKey: z.string().min(1).optional(),
    sessionToken: z.string().min(1).optional(),
  })
  .superRefine((s, ctx) => {
    if ((s.accessKeyId === undefined) !== (s.secretAccessKey === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'accessKeyId and secretAccessKey go together (or neither: the standard AWS chain)',
      });
    }
  });

export type SftpSource = z.infer<typeof sftpSourceSchema>;
export type S3Source = z.infer<typeof s3SourceSchema>;
