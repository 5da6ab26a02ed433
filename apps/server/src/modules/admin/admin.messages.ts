import { addMessages } from '../../lib/messages.ts';

/** Messages of administration (issue 17) in both API languages (acting on oneself or a higher role: auth.messages.ts). */
addMessages({
  customerNotFound: { en: 'Customer not found.', 'zh-CN': '客户不存在。' },
  customerCodeTaken: { en: 'A customer with this code exists already.', 'zh-CN': '该客户代码已存在。' },
  agentNotAgent: { en: 'Choose a user whose role is agent.', 'zh-CN': '请选择角色为代理的用户。' },
  userNameTaken: { en: 'A user with this name exists already.', 'zh-CN': '该用户名已存在。' },
  customerUserNeedsCustomer: {
    en: 'A customer user belongs to a customer: choose one.',
    'zh-CN': '客户用户必须属于一个客户，请选择客户。',
  },
  onlyCustomerUsersHaveCustomer: {
    en: 'Only a customer user belongs to a customer.',
    'zh-CN': '只有客户用户才能属于客户。',
  },
  cannotCreateHigherRole: {
    en: 'You cannot create an account of a role above your own.',
    'zh-CN': '不能创建高于自己角色的账号。',
  },
  routeNotForRole: {
    en: 'The route {route} is not for this role.',
    'zh-CN': '路由 {route} 不适用于该角色。',
  },
  routeUnknown: { en: 'No route named {route}.', 'zh-CN': '没有名为 {route} 的路由。' },
});
