/**
 * antd's rejection of a form that failed its own validation: it carries `errorFields`. Anything
 * else is not a validation failure. Its own module: the log (log.ts) and the form feedback
 * (form-feedback.ts) both ask, and the feedback already imports the HTTP client, which imports the log.
 */
export function isValidationError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && Array.isArray((e as { errorFields?: unknown }).errorFields);
}
