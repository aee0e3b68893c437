import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version in package.json, which sits beside src/ and dist/ (and in the image, /app). */
export function serviceVersion(): string {
  const file = join(__dirname, '..', '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}
