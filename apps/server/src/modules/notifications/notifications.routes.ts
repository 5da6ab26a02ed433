import { notifications as n } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { NotificationsService } from './notifications.service.ts';

export function notificationsRoutes(r: Registrar, service: NotificationsService) {
  r.call(n.notifications, (input, ctx) => service.page(ctx.actor, input));
  r.call(n.searchNotifications, (input, ctx) => service.page(ctx.actor, input));
  r.call(n.notificationInfo, (input, ctx) => service.info(ctx.actor, input.id));
  r.call(n.noticeCheck, (_input, ctx) => service.check(ctx.actor));
  r.call(n.noticeAgree, (input, ctx) => service.agree(ctx.actor, input.id));
  r.call(n.message, (_input, ctx) => service.message(ctx.actor));
  r.call(n.publishNotice, (input, ctx) => service.publish(ctx, input));
}
