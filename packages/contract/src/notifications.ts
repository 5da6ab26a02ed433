import { z } from 'zod';
import { defineCall, empty, nothing } from './call.ts';
import { isoTime, paged, paging } from './envelope.ts';
import { idOf, text } from './fields.ts';
import { i18nText } from './i18n.ts';

export const noticeSummary = z.object({
  id: z.number().int(),
  title: i18nText,
  publishedAt: isoTime,
  mustAgree: z.boolean(),
  read: z.boolean(),
  agreed: z.boolean(),
});
export const noticeDetail = noticeSummary.extend({ content: i18nText });

const id = z.object({ id: idOf });

export const notifications = defineCall({
  path: 'notifications',
  summary: 'Notices, newest first.',
  request: paging.extend({ unread: z.boolean().optional() }),
  response: paged(noticeSummary),
});
export const searchNotifications = defineCall({
  path: 'notification/search',
  summary: 'Notices whose title or content contain the keyword.',
  request: paging.extend({ keyword: text({ max: 100 }).default('') }),
  response: paged(noticeSummary),
});
export const notificationInfo = defineCall({
  path: 'notification/info',
  summary: 'One notice with its content; marks it read.',
  request: id,
  response: noticeDetail,
});
export const noticeCheck = defineCall({
  path: 'notice/check',
  summary: 'Whether unread or unagreed notices block ordering, and which.',
  request: empty,
  response: z.object({ blocking: z.boolean(), notices: z.array(noticeSummary) }),
});
export const noticeAgree = defineCall({
  path: 'notice/agree',
  summary: 'Agree to a notice that was read.',
  request: id,
  response: nothing,
});
export const message = defineCall({
  path: 'message',
  summary: 'Unread count and the latest notices (header bell).',
  request: empty,
  response: z.object({ unread: z.number().int(), latest: z.array(noticeSummary) }),
});
export const publishNotice = defineCall({
  path: 'notice/publish',
  summary: 'Operator: publish a notice.',
  permission: 'notice.manage',
  request: z.object({
    title: z.object({ zh: text({ min: 1, max: 200 }), en: text({ min: 1, max: 200 }) }),
    content: z.object({
      zh: text({ min: 1, max: 20_000, multiline: true }),
      en: text({ min: 1, max: 20_000, multiline: true }),
    }),
    mustAgree: z.boolean().default(false),
  }),
  response: id,
});
