// Not the contract's index: loaded by every batch parse worker (see lib/messages.ts).
import { ErrorCode, NO_DATA_MESSAGE } from '@console/contract/envelope';

/**
 * A failure the client is meant to see. `key` is a message key (the contract's catalogue, `@console/contract/errors`);
 * for 422, `fields` maps a field path to message keys, translated on the way out.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly key: string;
  readonly data: unknown;
  readonly params?: Record<string, string | number>;
  readonly fields?: Record<string, string[]>;
  constructor(
    code: ErrorCode,
    key: string,
    data: unknown = null,
    params?: Record<string, string | number>,
    fields?: Record<string, string[]>,
    /** The underlying failure: logged with a 5xx (an own enumerable property, so the logger writes it). */
    cause?: unknown,
  ) {
    super(key);
    if (cause !== undefined) this.cause = cause;
    this.code = code;
    this.key = key;
    this.data = data;
    this.params = params;
    this.fields = fields;
  }

  static validation(fields: Record<string, string[]>): AppError {
    return new AppError(ErrorCode.VALIDATION, 'validationFailed', null, undefined, fields);
  }
  /** A 422 on one field; `params` fill the message's placeholders (`{max}`). */
  static field(field: string, key: string, params?: Record<string, string | number>): AppError {
    return new AppError(ErrorCode.VALIDATION, 'validationFailed', null, params, { [field]: [key] });
  }
  /** An upload past the limit, which the message names in MB. */
  static fileTooLarge(limitBytes: number): AppError {
    return AppError.field('file', 'fileTooLarge', { max: Math.round((limitBytes / 1048576) * 10) / 10 });
  }
  static noData(): AppError {
    return new AppError(ErrorCode.BAD_REQUEST, 'noData');
  }
  static badRequest(key: string, params?: Record<string, string | number>): AppError {
    return new AppError(ErrorCode.BAD_REQUEST, key, null, params);
  }
  static unauthorized(key = 'unauthorized'): AppError {
    return new AppError(ErrorCode.UNAUTHORIZED, key);
  }
  static forbidden(key = 'forbidden'): AppError {
    return new AppError(ErrorCode.FORBIDDEN, key);
  }
  /** The disk is full (lib/storage.ts `isStorageFull`): a 507 in the user's language, the cause in the log. */
  static storageFull(cause: unknown): AppError {
    return new AppError(ErrorCode.INSUFFICIENT_STORAGE, 'storageFull', null, undefined, undefined, cause);
  }
  static conflict(key: string, params?: Record<string, string | number>, data: unknown = null): AppError {
    return new AppError(ErrorCode.CONFLICT, key, data, params);
  }
}

export { NO_DATA_MESSAGE };
