/**
 * An answer in the service's error shape (assumption `error-shape`): thrown anywhere in a
 * request, turned into `[{"Error": message}]` with this status by the error handler.
 */
export class ServiceError extends Error {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}

export const badInput = (message: string) => new ServiceError(400, message);
export const forbidden = (message: string) => new ServiceError(403, message);
export const notFound = (message: string) => new ServiceError(404, message);

export const noTeamNamed = (name: string) => notFound(`No team named "${name}" in this organization`);
