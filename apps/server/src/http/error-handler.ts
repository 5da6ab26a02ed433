import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@console/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { languageOf, translate } from '../lib/messages.ts';
import { isStorageFull } from '../lib/storage.ts';

/**
 * Every failure leaves as the envelope with HTTP status = code. Only AppError
 * texts reach the client; anything else is a 500 whose errorId is also in the
 * log line with the stack (never the stack, SQL or a path in the answer).
 */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const lang = languageOf(request.headers['accept-language']);
    // A full disk (files or database) is a 507 the user can read, its cause in the log (lib/storage.ts).
    if (!(error instanceof AppError) && isStorageFull(error)) error = AppError.storageFull(error);
    if (error instanceof AppError) {
      const data = error.fields
        ? Object.fromEntries(
            Object.entries(error.fields).map(([f, keys]) => [f, keys.map((k) => translate(lang, k, error.params))]),
          )
        : error.data;
      if (error.code >= 500) request.log.error({ err: error }, 'app error');
      return reply
        .status(error.code)
        .send({ code: error.code, message: translate(lang, error.key, error.params), data });
    }
    const fe = error as FastifyError;
    const known: Record<string, [number, string]> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType'],
      FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'payloadTooLarge'],
      FST_REQ_FILE_TOO_LARGE: [ErrorCode.PAYLOAD_TOO_LARGE, 'payloadTooLarge'],
      FST_FILES_LIMIT: [ErrorCode.VALIDATION, 'onlyOneFile'],
      FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.BAD_REQUEST, 'badJson'],
      FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.BAD_REQUEST, 'badJson'],
      FST_INVALID_MULTIPART_CONTENT_TYPE: [ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'unsupportedMediaType'],
    };
    const hit = fe.code ? known[fe.code] : undefined;
    if (hit) {
      return reply.status(hit[0]).send({ code: hit[0], message: translate(lang, hit[1]), data: null });
    }
    if (error instanceof SyntaxError && fe.statusCode === 400) {
      return reply.status(400).send({ code: 400, message: translate(lang, 'badJson'), data: null });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply
        .status(fe.statusCode)
        .send({ code: fe.statusCode, message: translate(lang, 'badRequestGeneric'), data: null });
    }
    const errorId = randomUUID();
    request.log.error({ err: error, errorId }, 'unhandled error');
    return reply.status(500).send({ code: 500, message: translate(lang, 'internal'), data: { errorId } });
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = languageOf(request.headers['accept-language']);
    reply.status(404).send({ code: 404, message: translate(lang, 'notFound'), data: null });
  });
}
