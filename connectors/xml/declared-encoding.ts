import type { TextEncoding } from '../text/encoding.js';

const LABELS: Record<string, TextEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'us-ascii': 'utf-8',
};

/** The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), if known. */
export function declaredXmlEncoding(head: Buffer): TextEncoding | undefined {
  const start = head.subarray(0, 200).toString('latin1');
  const match = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(start);
  return match ? LABELS[match[1]!.toLowerCase()] : undefined;
}
