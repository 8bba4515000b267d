/** The sandbox's stored things. Every record but the organization names the one it belongs to. */

export type Role = 'owner' | 'admin' | 'user';
/** The automation platforms a hook subscription belongs to (each has its own subscribe path). */
export const PLATFORMS = ['zapier', 'make'] as const;
export type Platform = (typeof PLATFORMS)[number];
export type IncidentStatus = 'triggered' | 'acknowledged' | 'resolved';

export interface Organization {
  readonly id: string;
  readonly name: string;
}

export interface Person {
  readonly id: string;
  readonly orgId: string;
  email: string;
  name: string;
  imageurl: string | null;
  phone: string | null;
  role: Role;
}

export interface Team {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
}

/** One layer of a team's schedule; a team with several layers has several people on call. */
export interface Rotation {
  readonly id: string;
  readonly teamId: string;
  participants: string[];
  readonly start: Date;
  readonly shiftMs: number;
}

export interface Incident {
  readonly id: string;
  readonly orgId: string;
  title: string;
  severity: string;
  status: IncidentStatus;
  description: string | null;
  teamname: string | null;
  readonly created_at: string;
  updated_at: string;
}

export interface Subscription {
  readonly id: string;
  readonly orgId: string;
  readonly platform: Platform;
  readonly url: string;
  /** null: changes of every team of the organization. */
  readonly teamId: string | null;
  readonly created_at: string;
}
