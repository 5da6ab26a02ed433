import { auth } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { AuthService } from './auth.service.ts';

export function authRoutes(r: Registrar, service: AuthService) {
  r.call(auth.login, (input, ctx) =>
    service.login(input, ctx.ip, ctx.request.headers['user-agent']?.slice(0, 300) ?? null),
  );
  r.call(auth.me, (_input, ctx) => service.me(ctx.actor));
  r.call(auth.logout, (_input, ctx) => service.logout(ctx.actor));
  r.call(auth.refresh, (_input, ctx) => service.refresh(ctx.bearer));
  r.call(auth.updatePassWord, (input, ctx) => service.updatePassword(ctx.actor, input, ctx.ip));
  r.call(auth.endSession, (input, ctx) => service.endSessionsOf(ctx, input.userName));
  r.call(auth.sessionList, (input, ctx) => service.sessions(ctx.actor, input));
  r.call(auth.endOneSession, (input, ctx) => service.endOneSession(ctx, input.id));
  r.call(auth.setUserDisabled, (input, ctx) => service.setDisabled(ctx, input.userName, input.disabled));
  r.call(auth.userSettings, (_input, ctx) => service.settings(ctx.actor));
  r.call(auth.saveUserSetting, (input, ctx) => service.saveSetting(ctx.actor, input.key, input.value, input.seq));
}
