import type { Incident } from '../shared/schemas/incident.ts';
import type { ApiKeyCheck } from '../shared/schemas/api-key-check.ts';
import type { DirectoryEntry, DirectoryRemoval } from '../shared/schemas/directory-entry.ts';
import type { OnCallUser } from '../shared/schemas/on-call-user.ts';
import type { Team } from '../shared/schemas/team.ts';
import type { OnCallChange } from '../shared/on-call/changes.ts';
import type { RowResult } from '../shared/directory-sync/apply.ts';
import type { FieldChange, PlannedRow } from '../shared/directory-sync/plan.ts';
import type { FoundBy } from '../shared/directory-sync/decode-text.ts';
import type { PeopleFormat } from '../shared/directory-import/people-file.ts';
import type { PhoneNote, RoleCount, SkippedPerson, SkipReason } from '../shared/directory-import/select-people.ts';
import type { SourceId } from '../shared/directory-import/sources.ts';
import type { AnyErrorCode, COMMAND_ONLY_CODES, CommandErrorCode, ErrorCode } from './exit-table.ts';

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
  /** What was read from the source and written to the people file, and who was left out and why. */
  'directory import': ImportDocument;
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

/** What `--json` prints on stderr when a command that has codes of its own fails (exit-table.ts COMMAND_ONLY_CODES). */
export type JsonCommandErrorDocuments = {
  [Command in (typeof COMMAND_ONLY_CODES)[keyof typeof COMMAND_ONLY_CODES]]: { error: JsonError<CommandErrorCode<Command>> };
};

/** One team in `on-call --json`: who is on call, or why it could not be read. */
export type OnCallTeamJson =
  | { id: Team['id']; name: Team['name']; onCall: readonly OnCallUser[] }
  | { id: Team['id']; name: Team['name']; error: { code: ErrorCode; message: string } };

/** An incident as `incident create|update --json` prints it. */
export type IncidentJson = { [K in keyof Incident as K extends 'id' ? never : K]: Incident[K] } & { id?: Incident['id'] | null; note?: string };

/** An error as `--json` prints it on stderr: `{"error": {...}}`. */
export interface JsonError<Code extends AnyErrorCode = ErrorCode> {
  /** What kind of failure it is: one of the codes of exit-table.ts EXIT_BY_ERROR, which also decides `exitCode`. */
  code: Code;
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
  /** `detected`: how sure the reader is of that code page (0-100): its reading's share of the probability of all readings as names. */
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

/** `directory import --json`: the file written, and everything a reviewer checks before syncing it. */
export interface ImportDocument {
  source: SourceId;
  /** The API base that was read (the configured one, or the default). */
  base: string;
  file: string;
  format: PeopleFormat;
  summary: ImportSummary;
  /** Each role of the source and what it became, with how many people. */
  roles: RoleCount[];
  /** Everyone left out, with the reason (`blocked`, `invited`, `unusable`, `duplicate`, `gone`) and why. */
  skipped: SkippedPerson[];
  /** People with several numbers: the one taken (a usable one first, then the source's order) and the others. */
  severalNumbers: PhoneNote[];
  /** What the source cannot give (Grafana OnCall: phones, names) and other remarks, in words. */
  notes: string[];
}

/** The counts of an import. */
export interface ImportSummary {
  /** People the source listed, every page read. */
  listed: number;
  /** Rows in the file. */
  written: number;
  skipped: number;
  skippedBy: Record<SkipReason, number>;
  pages: number;
  /** Requests answered by the source, retries not counted. */
  requests: number;
  /** People listed on two pages (the list changed while it was read), kept once. */
  listedTwice: number;
  /** People in the file with a phone number, and without; null where the source gives no numbers. */
  phonesFound: number | null;
  phonesMissing: number | null;
  /** Numbers that do not read as international ones (no country code), not taken. */
  phonesUnreadable: number;
}
