/**
 * What other modules use of users: a module reaches another only through its index.ts (eslint
 * import-x zones, docs/decisions/2026-11-27-import-layering-lint.md).
 */
export { createUsersRepository, type UsersRepository } from './users.repository.ts';
