import { z } from 'zod';
import { defineCall } from './call.ts';
import { ErrorCode } from './envelope.ts';
import { idOf } from './fields.ts';

/** Files the server made for a user (spec §7 "Files": `file/downloadSteam`, a blob, no timeout). */
export const downloadFile = defineCall({
  path: 'file/downloadSteam',
  answers: [ErrorCode.NOT_FOUND],
  summary:
    'A file the server made for the caller (a print job’s label PDF), by id; another user’s file reads as not found.',
  request: z.object({ id: idOf }),
  response: z.null(),
  kind: 'blob',
  file: 'stored',
  timeout: 0,
});
