import { admin as c } from '@console/contract';
import type { Registrar } from '../../http/register-call.ts';
import type { AdminService } from './admin.service.ts';

export function adminRoutes(r: Registrar, service: AdminService) {
  r.call(c.customerList, (input) => service.customerPage(input));
  r.call(c.createCustomer, (input, ctx) => service.createCustomer(ctx, input));
  r.call(c.updateCustomer, (input, ctx) => service.updateCustomer(ctx, input));
  r.call(c.customerSegments, (input) => service.segments(input.customerId));
  r.call(c.createSegment, (input, ctx) => service.createSegment(ctx, input));
  r.call(c.retireSegment, (input, ctx) => service.retireSegment(ctx, input.id));
  r.call(c.userList, (input) => service.userPage(input));
  r.call(c.createUser, (input, ctx) => service.createUser(ctx, input));
  r.call(c.resetPassword, (input, ctx) => service.resetPassword(ctx, input.id));
  r.call(c.disableUser, (input, ctx) => service.setDisabled(ctx, input.id, input.disabled));
  r.call(c.endUserSessions, (input, ctx) => service.endSessions(ctx, input.id));
  r.call(c.roleList, () => service.roles());
  r.call(c.updateRole, (input, ctx) => service.updateRole(ctx, input.role, input.routes));
  r.call(c.auditList, (input) => service.auditPage(input));
}
