/** An error as Make reports it: a type from Make's list and a message. */
export class MakeError extends Error {
  readonly type: string;
  readonly status: number | undefined;

  constructor(type: string, message: string, status?: number) {
    super(message);
    this.name = 'MakeError';
    this.type = type;
    this.status = status;
  }
}

/** The generated app asks for something this runner (and the IML subset) does not do: a generator bug. */
export class UnsupportedDirectiveError extends Error {
  constructor(where: string, directive: string) {
    super(`${where} uses "${directive}", which this runner does not support; the generator must not emit it.`);
    this.name = 'UnsupportedDirectiveError';
  }
}
