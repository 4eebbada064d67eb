/**
 * docs/CONNECTORS.md, made from the connectors' declarations (option schemas, extensions, media
 * types, notes) and the
 * general rules below, so that the doc cannot drift from the code: a test compares the two.
 */
import { format, resolveConfig } from 'prettier';
import { CONNECTORS } from '../registry.js';
import { optionFacts, type OptionFacts } from '../option-facts.js';
import type { Connector } from '../types.js';

export const DOC_PATH = 'docs/CONNECTORS.md';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (value: unknown): string => {
  const text = value === '\t' ? '\\t' : String(value);
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
};

function optionRow(d: OptionFacts): string {
  const type = d.kind === 'enum' ? (d.values ?? []).map(code).join(', ') : d.kind;
  const fallback = d.required ? '(required)' : d.default === undefined ? '' : code(d.default);
  const bounds = [d.min === undefined ? '' : `≥ ${d.min}`, d.max === undefined ? '' : `≤ ${d.max}`]
    .filter(Boolean)
    .join(', ');
  const example = d.example === undefined ? '' : ` Example: ${code(d.example)}.`;
  return `| \`${d.name}\` | ${cell(type)}${bounds ? ` (${bounds})` : ''} | ${fallback} | ${cell(d.description)}${example} |`;
}

function connectorSection(c: Connector): string {
  const options = optionFacts(c.options);
  return [
    `## ${c.name}`,
    c.description,
    `Extensions: ${c.extensions.map(code).join(', ')}. Media types: ${c.mediaTypes
      .map((t) => (t.startsWith('+') ? `any ending in ${code(t)}` : code(t)))
      .join(', ')}.`,
    options.length === 0
      ? 'No options.'
      : [
          '| option | type | default | meaning |',
          '| --- | --- | --- | --- |',
          ...options.map(optionRow),
        ].join('\n'),
    ...(c.notes ?? []),
  ].join('\n\n');
}

const INTRO = `# Connectors

<!-- Generated from the option schemas in connectors/*/options.ts and the connectors' notes by \`npm run docs:connectors\`.
Do not edit by hand: test/connectors/docs.test.ts fails when this file and the code disagree. -->

A connector turns the bytes of a source into records: \`{fields, source: {file, line}}\`, where
\`fields\` maps a column (or element, or key) name to its value as a string, exactly as read and
before any mapping, and \`line\` is the physical line (for xlsx, the row) on which the record
starts. A record that cannot be read becomes an error item \`{file, line, field?, message}\` and
reading goes on; input that is not what the connector and its options say stops the reading with an
error naming the file (code \`FERRY_CONNECTOR\`), never a crash.

\`ferry read FILE [--connector NAME] [--option k=v]... [--limit N] [--json]\` shows what a connector
reads from a file, for writing a pipeline: the encoding, delimiter and header it found, then each
record with its line. \`ferry read --help\` has the details.

## Sources

| source | how to give it | records name it |
| --- | --- | --- |
| a file | a path | the path as given |
| a folder | a folder and a \`pattern\` (a glob on file names: \`*\`, \`?\`, \`[a-z]\`, \`{csv,txt}\`; default \`*\`) | each file's own path; files are read one after the other in name order (by code point) |
| stdin | \`-\` on the command line | \`stdin\` |
| an http(s) URL | the URL, optionally with request headers | the URL without user, password, query or fragment |
| files on an SFTP server | \`source.sftp\`: \`{host, port?, username, password? \\| privateKey?, passphrase?, hostKey, path, pattern?}\`; on the command line \`sftp://USER@HOST[:PORT]/PATH\` (one file) | \`sftp://user@host:port/path\` |
| objects in an S3 bucket | \`source.s3\`: \`{bucket, prefix?, pattern?, endpoint?, region?, forcePathStyle?, accessKeyId?, secretAccessKey?, sessionToken?}\`; on the command line \`s3://BUCKET/KEY\` (one object) | \`s3://bucket/key\` |

A URL is fetched with a GET; network errors and 408, 429 and 5xx answers are retried three times
with backoff before the body starts, other answers fail at once; redirects are followed. A
\`user:password@\` in the URL is sent as Basic authorization and never shown. A folder with no
matching file is an error, not an empty read.

### SFTP and S3

An SFTP source is a file (\`path\`), or with \`pattern\` the matching files of the folder \`path\`
in name order. \`hostKey\` is required: the server's public key as OpenSSH writes it
(\`ssh-ed25519 AAAA...\`, from \`/etc/ssh/ssh_host_ed25519_key.pub\` or \`ssh-keyscan\`) or its
fingerprint (\`SHA256:...\`, from \`ssh-keyscan HOST | ssh-keygen -lf -\`). A server that presents
another key is refused before a byte is sent or read: \`FERRY_SOURCE_HOST_KEY\` (exit code 2), naming
the fingerprint it saw. Give \`password\` or \`privateKey\` (the key's text, best as \`\${NAME}\` with
\`NAME_FILE\` naming the key file; \`passphrase\` for an encrypted one). One connection serves the
whole read (15 s to connect and log in, keepalives every 5 s, 3 missed is a lost connection).

An S3 source is the objects directly under the folder of \`prefix\` (the part up to its last
\`/\`) whose keys start with \`prefix\` and whose names match \`pattern\` (default \`*\`), in name
order; objects in sub-folders (such as the archive) are not read. \`endpoint\` (default
\`AWS_ENDPOINT_URL_S3\` or \`AWS_ENDPOINT_URL\`) names an S3-compatible store (MinIO, Ceph...);
\`region\` defaults to \`AWS_REGION\`, else \`us-east-1\`; \`forcePathStyle\` defaults to true when an
endpoint is set. Credentials: \`accessKeyId\` and \`secretAccessKey\` (best as \`\${NAME}\` values), else
\`AWS_ACCESS_KEY_ID\` / \`AWS_SECRET_ACCESS_KEY\` (also from \`AWS_ACCESS_KEY_ID_FILE\` /
\`AWS_SECRET_ACCESS_KEY_FILE\`), else the SDK's standard chain (profile, web identity, instance role).

Both stream: a file is never held in memory. When the connection drops midway (or a body ends
short), the read reconnects and goes on from the last byte received, after checking the file is the
same (size and modification time; for S3 the ETag, sent as If-Match); three lost connections in one
read, or a server that does not answer (four tries to connect, with backoff; S3: four tries of each
request), is \`FERRY_SOURCE_UNREACHABLE\` (exit code 5). Messages name user, host, port, bucket and
path, never a password, key or secret.

\`ferry read\` and \`ferry plan --file\` take one remote object: \`sftp://USER@HOST[:PORT]/PATH\` with
the host key in \`FERRY_SFTP_HOST_KEY\` and the password or private key in \`FERRY_SFTP_PASSWORD\` /
\`FERRY_SFTP_PRIVATE_KEY\` (each also from its \`_FILE\`); with \`ferry plan\`/\`run\`, an address on
the pipeline's own SFTP server takes what it lacks from the pipeline's \`source.sftp\`. A password in
the address is refused (it would show in the process list). \`s3://BUCKET/KEY\` takes the endpoint,
region and credentials from the AWS variables (or from the pipeline's \`source.s3\` on the same bucket).

## Choosing a connector

The connector named in the pipeline (or by \`--connector\`); else the one that claims the file's
extension; else, for a URL or an upload, the one that declares the media type (each connector's section
lists its own); else by the first bytes: a zip archive is xlsx, \`<\` xml, \`[\` or \`{\` json,
anything else csv.

## Text encodings (csv, json, xml)

A byte-order mark (UTF-8, UTF-16LE, UTF-16BE) decides, whatever the \`encoding\` option says (as in
browsers: read as Windows-1252, a UTF-8 mark would become \`ï»¿\` in the first column's name);
\`ferry read\` says when it overruled the option. Without one, \`encoding: auto\` (the default) takes, for xml, the encoding its declaration names; else the first 64 KiB are looked at: valid
UTF-8 is UTF-8, anything else Windows-1252. When those bytes are all ASCII the decision waits for the
first chunk that is not, so a file whose first non-ASCII letter comes late is still read right. Text
in another encoding needs the option. A file decided as UTF-8 that later holds an invalid sequence
stops with an error naming the file and byte offset. A NUL byte (binary data, or UTF-16 without a
byte-order mark), a zip archive or gzip data given to a text connector is refused with a clear error.

## Errors

| what | result |
| --- | --- |
| a record that cannot be read | an error item \`{file, line, field?, message}\`; reading goes on |
| input that is not what the connector expects | \`FERRY_CONNECTOR\`, naming the file (and line) |
| a source that cannot be opened or fetched | \`FERRY_SOURCE\` (a missing file or folder: exit code 2) |
| an SFTP server or S3 endpoint that cannot be reached, or keeps dropping the connection | \`FERRY_SOURCE_UNREACHABLE\` (exit code 5) |
| an SFTP server whose host key is not \`hostKey\` | \`FERRY_SOURCE_HOST_KEY\`, naming the fingerprint it saw (exit code 2) |
| an unknown connector name | \`FERRY_CONNECTOR_UNKNOWN\`, listing the known ones (exit code 2) |
| an unknown or bad option | \`FERRY_CONFIG_INVALID\`, naming \`<path>.<option>\` and what was expected (exit code 2) |

## Size limits

No record vanishes and none is held whole: a record or field over its connector's limit is an
error item naming the file, the line, its size in bytes, the limit and the option that raises it
(\`the field is 17825792 bytes, larger than maxFieldBytes (16777216 bytes): it was not read (the csv
option maxFieldBytes raises the limit)\`), and reading goes on with the next record. Its bytes are
counted as they stream past, never kept, so reading costs no more memory than the limit: a text
head followed by a 2 GB run of zeros (a sparse file) gives its records and one error for the 2 GB
record (when the zeros begin within the first 64 KiB, the file is refused as binary data instead;
bench/hostile-inputs.ts prints the time and peak memory of each such input).

| connector | limit (default) | over it |
| --- | --- | --- |
| csv | \`maxFieldBytes\` (16 MiB): one field; \`maxRecordBytes\` (64 MiB): a record's fields together | an error item for its record; a header line over 1 MiB stops the reading |
| json | \`maxRecordBytes\` (16 MiB): one object, an array element or an NDJSON line | an error item for the record |
| xml | \`maxFieldBytes\` (16 MiB): one text, CDATA section or attribute value; \`maxRecordBytes\` (64 MiB): a record's names and values together; \`maxAttributes\` (10,000): one element's attributes | an error item for the record; a tag name or comment over \`maxFieldBytes\` stops the reading |
| xlsx | \`maxFieldBytes\` (16 MiB): one cell's text, inline or a shared string | an error item for each row showing it; a tag or attribute value over it stops the reading; a part over \`maxPartBytes\` (1 GiB) or \`maxCompressionRatio\` (200) is refused before unpacking |

## From code

\`readSource(spec, connector?, options?, context?)\` in connectors/read-source.ts returns
\`{items, meta}\`: \`items\` is an async iterable of \`{record}\` or \`{error}\`, \`meta\` what the
connector found out (\`encoding\`, \`delimiter\`, \`header\`, ...), filled in before the first item.
\`spec\` is \`{file}\`, \`{folder, pattern?}\`, \`{url, headers?}\`, \`{sftp}\`, \`{s3}\` or \`{stdin: true}\`. The registry
(connectors/registry.ts) has \`getConnector(name)\`, \`connectorForPath(path)\` and
\`validateConnectorOptions(connector, options, path)\`, which a pipeline calls when its config is
loaded, so that a bad option fails at start with its path.`;

export function renderConnectorDocs(): string {
  return [INTRO, ...CONNECTORS.map(connectorSection)].join('\n\n') + '\n';
}

/** The doc as committed: rendered, then formatted with the project's prettier settings. */
export async function formattedConnectorDocs(docPath: string): Promise<string> {
  const options = (await resolveConfig(docPath)) ?? {};
  return format(renderConnectorDocs(), { ...options, filepath: docPath });
}
