import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { GeneratedFiles, SurfaceSource } from '../surfaces/surface.ts';
import { type Json, openApiDocument } from './generator/document.ts';
import { readRecordings } from './generator/recordings.ts';

/** The document's version: the package's, so a release of the connectors names the contract it follows. */
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const DOCUMENT_JSON = 'openapi.json';
export const DOCUMENT_YAML = 'openapi.yaml';

/** The document from these descriptions, with the recordings' examples; the same document as JSON and YAML. */
export function openApi(source: SurfaceSource): Json {
  return openApiDocument({ ...source, recordings: readRecordings(), version });
}

export function generateOpenApi(source: SurfaceSource): GeneratedFiles {
  const document = openApi(source);
  return new Map<string, unknown>([
    [DOCUMENT_JSON, document],
    // aliasDuplicateObjects off: a YAML reader should see the same tree as the JSON, without anchors.
    [DOCUMENT_YAML, stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 })],
  ]);
}
