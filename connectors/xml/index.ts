/**
 * The xml connector: streamed through saxes (a strict, non-validating SAX parser); every element
 * named `recordElement` is one record (see record-builder.ts for its fields).
 */
import { SaxesParser } from 'saxes';
import { defineConnector } from '../define-connector.js';
import type { ConnectorInput, ReadItem, ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { checkedSize, isOversized } from '../bounded-text.js';
import { drainText, dropAttributeValue } from '../sax-text.js';
import { decodeText } from '../text/decode-text.js';
import { declaredXmlEncoding } from './declared-encoding.js';
import { xmlOptions, type XmlOptions } from './options.js';
import { localName, RecordBuilder, type BuiltRecord } from './record-builder.js';

/** Text fed to saxes at a time, so that a text or tag that never ends is caught early. */
const SLICE_CHARS = 64 * 1024;

function toItem(record: BuiltRecord, file: string): ReadItem {
  if (record.problem) return { error: { file, line: record.line, ...record.problem } };
  return { record: { fields: record.fields, source: { file, line: record.line } } };
}

/** Events of the SAX parser -> finished records; remembers what it saw for a helpful error. */
class XmlRecords {
  readonly parser = new SaxesParser<{ xmlns: false; position: true }>({
    xmlns: false,
    position: true,
  });
  readonly done: BuiltRecord[] = [];
  /** Names of the root's children, for the message when no record element is found. */
  readonly childNames = new Set<string>();
  count = 0;
  private depth = 0;
  /** Attributes of the start tag being read (counted past the limit, held only up to it). */
  private attributes = 0;
  /** Bytes dropped from the attribute value being read (dropAttributeValue). */
  attributeOverflow = 0;
  /** The first attribute of the start tag being read over maxFieldBytes. */
  private oversizedAttribute: { name: string; bytes: number } | undefined;
  private tagLine = 0;
  private builder: RecordBuilder | undefined;
  private builderLine = 0;
  /** Characters fed when the parser last emitted an event. */
  eventAt = 0;
  fed = 0;

  constructor(o: XmlOptions, name: string) {
    const { recordElement, maxFieldBytes, maxAttributes } = o;
    const p = this.parser;
    // saxes holds a start tag's attributes in a list (a new one per tag) until the tag ends: one
    // element with a million attributes took hundreds of MB. Those past the limit are dropped as
    // they are parsed (the element's record becomes an error), so no tag holds more than it.
    p.on('attribute', (attribute) => {
      if (this.attributeOverflow > 0 || isOversized(checkedSize(attribute.value, maxFieldBytes))) {
        const bytes = this.attributeOverflow + Buffer.byteLength(attribute.value);
        this.oversizedAttribute ??= { name: attribute.name, bytes };
        this.attributeOverflow = 0;
        attribute.value = '';
      }
      if (++this.attributes <= maxAttributes) return;
      const held: unknown[] = p['attribList'];
      held.pop();
    });
    p.on('doctype', (doctype) => {
      // Entities are never expanded: an external one could read this machine's files or URLs,
      // nested ones inflate a few bytes into gigabytes. Saying so beats "undefined entity".
      if (/<!ENTITY/i.test(doctype)) {
        throw new ConnectorError(
          `${name} declares entities in its DOCTYPE (which ends on line ${p.line}): Ferry does not expand XML ` +
            'entities (external ones could read files of this machine, nested ones inflate to ' +
            'gigabytes). Export the file without a DOCTYPE, or with the text written out.',
          { file: name, line: p.line },
        );
      }
    });
    p.on('opentagstart', (tag) => {
      this.eventAt = this.fed;
      this.attributes = 0;
      this.oversizedAttribute = undefined;
      this.tagLine = p.line;
      if (!this.builder && localName(tag.name) === recordElement) this.builderLine = p.line;
    });
    p.on('opentag', (tag) => {
      this.depth++;
      if (this.depth === 2) this.childNames.add(tag.name);
      if (this.builder) this.builder.openElement(tag.name, tag.attributes);
      else if (this.builderLine) {
        this.builder = new RecordBuilder(
          this.builderLine,
          tag.attributes,
          { maxFieldBytes, maxRecordBytes: o.maxRecordBytes },
          o.invisibleInNames,
        );
      }
      // Outside a record, attributes are not read: too many of them lose nothing.
      if (this.attributes > maxAttributes)
        this.builder?.tooManyAttributes(tag.name, this.tagLine, this.attributes, maxAttributes);
      if (this.oversizedAttribute)
        this.builder?.oversizedAttribute(tag.name, this.oversizedAttribute, maxFieldBytes);
    });
    const onText = (text: string): void => {
      this.eventAt = this.fed;
      this.builder?.text(text);
    };
    p.on('text', onText);
    p.on('cdata', onText);
    p.on('closetag', () => {
      this.eventAt = this.fed;
      this.depth--;
      const record = this.builder?.closeElement();
      if (record) {
        this.done.push(record);
        this.count++;
        this.builder = undefined;
        this.builderLine = 0;
      }
    });
  }
}

async function* readXml(
  input: ConnectorInput,
  o: XmlOptions,
  meta: ReadMeta,
): AsyncGenerator<ReadItem> {
  const name = input.name;
  meta.recordElement = o.recordElement;
  const records = new XmlRecords(o, name);
  const fail = (error: unknown): never => {
    throw new ConnectorError(
      `${name} is not well-formed XML (line ${records.parser.line}): ${(error as Error).message}`,
      { file: name, line: records.parser.line },
    );
  };
  const text = decodeText(input.stream, {
    name,
    encoding: o.encoding,
    meta,
    declared: declaredXmlEncoding,
  });
  let started = false;
  for await (const chunk of text) {
    if (!started) {
      const first = chunk.trimStart()[0];
      if (first === undefined) continue;
      if (first !== '<') {
        throw new ConnectorError(
          `${name} is not XML: it starts with "${first}" where an XML document starts with "<".`,
          { file: name, line: 1 },
        );
      }
      started = true;
    }
    for (let at = 0; at < chunk.length; at += SLICE_CHARS) {
      const slice = chunk.slice(at, at + SLICE_CHARS);
      records.fed += slice.length;
      try {
        records.parser.write(slice);
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        fail(error);
      }
      // A long text reaches the record in pieces and a long attribute value is counted, not
      // held; a tag name or a comment that long is held whole by saxes, so the reading stops.
      const inText = drainText(records.parser, SLICE_CHARS);
      const dropped = inText ? 0 : dropAttributeValue(records.parser, o.maxFieldBytes);
      if (dropped > 0) {
        records.attributeOverflow += dropped;
        records.eventAt = records.fed;
      } else if (!inText && records.fed - records.eventAt > o.maxFieldBytes) {
        throw new ConnectorError(
          `${name}: a tag or comment that starts before line ${records.parser.line} is larger than ` +
            `maxFieldBytes (${o.maxFieldBytes}): reading stopped.`,
          { file: name, line: records.parser.line },
        );
      }
    }
    for (const record of records.done) yield toItem(record, name);
    records.done.length = 0;
  }
  try {
    records.parser.close();
  } catch (error) {
    fail(error);
  }
  for (const record of records.done) yield toItem(record, name);
  if (records.count === 0 && records.childNames.size > 0) {
    const seen = [...records.childNames].slice(0, 5).map((n) => `<${n}>`);
    throw new ConnectorError(
      `${name} has no <${o.recordElement}> element; the root element holds ${seen.join(', ')}: ` +
        'set the recordElement option to the element that is one record.',
      { file: name },
    );
  }
}

export const xmlConnector = defineConnector({
  name: 'xml',
  description: 'XML, streamed; every element named `recordElement` is one record.',
  extensions: ['.xml'],
  mediaTypes: ['application/xml', 'text/xml', '+xml'],
  options: xmlOptions,
  notes: [
    "A record's fields: its attributes as `@name`; the text of each element inside it under its " +
      'path from the record (`Price`, `Address.City`), and their attributes as `path@name` ' +
      '(`Price@currency`); text directly inside the record element as `#text`. A name that ' +
      'repeats gets `[2]`, `[3]`... (`Tag`, `Tag[2]`). Text is kept as it is (entities decoded, ' +
      "CDATA included, not trimmed). `line` is the line of the record element's start tag.",
    'Input that is not well-formed XML (CSV, JSON, a truncated file) stops the reading with an ' +
      'error naming the file and line; so does a file with no record element, naming the ' +
      'elements it does hold.',
    'A DOCTYPE that declares entities is refused at once: entities are never expanded (no ' +
      'external entity is fetched, no nested entity inflates). A DOCTYPE without entities is ' +
      'ignored.',
  ],
  read: readXml,
});
