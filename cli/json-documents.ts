import type { Incident } from '../shared/schemas/incident.ts';
import type { ApiKeyCheck } from '../shared/schemas/api-key-check.ts';
import type { DirectoryEntry, DirectoryRemoval } from '../shared/schemas/directory-entry.ts';
import type { OnCallUser } from '../shared/schemas/on-call-user.ts';
import type { Team } from '../shared/schemas/team.ts';
import type { OnCallChange } from '../shared/on-call/changes.ts';
import type { RowResult } from '../shared/directory-sync/apply.ts';
import type { FieldChange, PlannedRow } from '../shared/directory-sync/plan.ts';
import type { FoundBy } from '../shared/directory-sync/decode-text.ts';
import type { ErrorCode } from './exit-table.ts';

/**
 * What `--json` prints on stdout, per command path: the one declaration of each document's
 * shape. `Output.result` takes a command's path and only a value of its type here, so a
 * command cannot print a shape this does not describe, and the CLI's public-interface report
 * (scripts/api/surfaces/cli.ts) reads its keys and types from this declaration. Scripts parse
 * these keys: renaming or removing one breaks them.
 */
export interface JsonDocuments {
  /** The service's answer to the key check (the catalog's `checkApiKey` output), unknown keys kept. */
  check: ApiKeyCheck;
  /** The service's team list (`listTeams` output). */
  teams: { teams: Team[] };
  /** Each team with the people on call (`listOnCallUsers` output), or the error that kept it from being read. */
  'on-call': { teams: OnCallTeamJson[] };
  /** With --once: the changes since the last look, each as the line a watch prints. */
  'on-call watch': { changes: OnCallChange[] };
  /** The service's answer (`createOrUpdateIncident` output); `id` null with a `note` where it gave no readable id. */
  'incident create': IncidentJson;
  /** As `incident create`. */
  'incident update': IncidentJson;
  /** The entry as the service answers it (`getDirectoryEntry` output). */
  'directory get': DirectoryEntry;
  /** The entry as the service answers it (`upsertDirectoryEntry` output). */
  'directory set': DirectoryEntry;
  /** The entry as the service answers it (`updateDirectoryPhone` output). */
  'directory phone': DirectoryEntry;
  /** The entry as the service answers it (`changeDirectoryRole` output). */
  'directory role': DirectoryEntry;
  /** The service's answer (`removeDirectoryEntry` output). */
  'directory remove': DirectoryRemoval;
  /** The plan (--dry-run) or what was done, row by row. */
  'directory sync': SyncDocument;
}

/** A command whose `--json` output is one document. */
export type JsonCommand = keyof JsonDocuments;

/** Commands that print one JSON document per line as things happen (a watch without --once). */
export interface JsonLines {
  'on-call watch': OnCallChange;
}

/** What `--json` prints on stderr when any command fails. */
export interface JsonErrorDocument {
  error: JsonError;
}

/** One team in `on-call --json`: who is on call, or why it could not be read. */
export type OnCallTeamJson =
  | { id: Team['id']; name: Team['name']; onCall: readonly OnCallUser[] }
  | { id: Team['id']; name: Team['name']; error: { code: ErrorCode; message: string } };

/** An incident as `incident create|update --json` prints it. */
export type IncidentJson = { [K in keyof Incident as K extends 'id' ? never : K]: Incident[K] } & { id?: Incident['id'] | null; note?: string };

/** An error as `--json` prints it on stderr: `{"error": {...}}`. */
export interface JsonError {
  /** What kind of failure it is: one of the codes of exit-table.ts EXIT_BY_ERROR, which also decides `exitCode`. */
  code: ErrorCode;
  message: string;
  retryable: boolean;
  exitCode: number;
  status?: number;
  endpoint?: string;
  retryAfterSeconds?: number;
  problems?: { row?: number; field?: string; problem: string }[];
}

/** A sync's counts with --dry-run: what would be done. */
export interface PlanSummary {
  toCreate: number;
  toUpdate: number;
  toRemove: number;
  unchanged: number;
  alreadyAbsent: number;
  failed: number;
  skipped: number;
  notLookedUp: number;
}

/** A sync's counts once applied: what was done. */
export interface ResultSummary {
  created: number;
  updated: number;
  removed: number;
  unchanged: number;
  alreadyAbsent: number;
  failed: number;
  skipped: number;
  notSent: number;
}

/** One row of the sync report. */
export interface JsonRow {
  row: number;
  email: string;
  action: PlannedRow['kind'];
  outcome?: RowResult['outcome'];
  changes?: FieldChange[];
  /** Why a `skip` row is not done. */
  reason?: string;
  error?: JsonError;
}

/** The sync report as `--json` prints it. */
export interface SyncDocument {
  file: string;
  /** The encoding the file was read in (`utf-8`, `utf-16le`, `windows-1251`, ...). */
  encoding?: string;
  /** How it was found: `bom`, `utf-8` (its bytes are valid UTF-8), `utf-16-nuls`, `detected` or `given` (--encoding). */
  encodingFoundBy?: FoundBy;
  /** `detected`: chardet's score of that code page (0-100), when it has a model of it. */
  encodingConfidence?: number;
  /** Said when the file is not UTF-8: how it was read. */
  note?: string;
  dryRun: boolean;
  /** Ctrl-C stopped it: rows with outcome `not-sent` were not done (running the file again does them). */
  interrupted: boolean;
  summary: PlanSummary | ResultSummary;
  rows: JsonRow[];
  failures: (JsonError & { row: number; email: string; action: PlannedRow['kind'] })[];
}
