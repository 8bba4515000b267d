import type * as z from 'zod/mini';
import type { AssumptionId } from '../assumptions.ts';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

/** Which of the two documented bases a path lives under (assumption `bases`). */
export type BaseName = 'api' | 'rotations';

/**
 * One endpoint of the service. Input fields are placed by rule, not by hand:
 * `{name}` segments of the path take the field of that name, the rest go to the query
 * string for GET and DELETE and to the JSON body for POST.
 */
export interface Endpoint<In extends z.ZodMiniType = z.ZodMiniType, Out extends z.ZodMiniType = z.ZodMiniType, Key extends string = string> {
  readonly key: Key;
  readonly method: HttpMethod;
  readonly path: string;
  readonly base: BaseName;
  readonly summary: string;
  /** Org-admin only, as the spec's table says. */
  readonly adminOnly: boolean;
  /** Safe to send again after a network error or 5xx (reads, deletes, replaces). */
  readonly idempotent: boolean;
  /** `false` for endpoints this project had to assume (the spec does not show them). */
  readonly documented: boolean;
  /** For an endpoint the spec does not show: what the connectors do when the service lacks it. */
  readonly withoutIt?: string;
  readonly input: In;
  readonly output: Out;
  /**
   * `documented`: a response that does not fit is an error. `assumed`: it is passed on as it
   * came (a write's 2xx whatever its body: assumption `created-id`). `status-only`: the spec gives the answer no shape, only a purpose, so any 2xx answers
   * it whatever the body or its content type; a JSON object is kept (for a label), anything
   * else reads as `{}`.
   */
  readonly outputShape: 'documented' | 'assumed' | 'status-only';
  readonly assumptions: readonly AssumptionId[];
  /**
   * Without this input field the call creates a record, whose id the caller needs next (to
   * update or resolve it): the id is read where the answer puts it (created-id.ts), and a 2xx
   * that names none is still a success, with an empty id and a note.
   */
  readonly createsUnless?: { readonly field: string; readonly noun: string };
  /**
   * A write an action makes (a create, a replace, a removal): a 2xx means it was done, whatever
   * the body, which is passed on as it came (assumption `created-id`); a body that cannot be read
   * goes under `answer` as text. Hook subscriptions are not: a platform stores the id they answer.
   */
  readonly successWhateverTheBody?: boolean;
  /** The key check: it refuses nothing but the key, so its 400, 401 and 403 all mean an unusable key. */
  readonly checksKey?: boolean;
}

/** A `{name}` segment of an endpoint's path. */
const PATH_PARAMETER = /\{(\w+)\}/g;

/**
 * The path with each `{name}` segment replaced by `value(name)`: the one reading of the
 * catalog's path syntax, for the client (encoded values), Make (IML) and the sandbox (`:name` routes).
 */
export const fillPath = (path: string, value: (name: string) => string): string => path.replace(PATH_PARAMETER, (_, name: string) => value(name));

export const defineEndpoint = <const Key extends string, In extends z.ZodMiniType, Out extends z.ZodMiniType>(endpoint: Endpoint<In, Out, Key>) => endpoint;

export type InputOf<E> = E extends Endpoint<infer In, z.ZodMiniType, string> ? z.input<In> : never;
export type OutputOf<E> = E extends Endpoint<z.ZodMiniType, infer Out, string> ? z.output<Out> : never;
