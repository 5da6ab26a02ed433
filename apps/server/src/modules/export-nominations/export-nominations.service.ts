import { type ApiLanguage, ErrorCode, type exportNominations as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { Download } from '../../http/call-context.ts';
import { AppError } from '../../lib/errors.ts';
import { StaleVersion, versionedSave } from '../../lib/versions.ts';
import type { ProgressTracker } from '../../lib/export-progress.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import { buildWorkbookStream } from '../../lib/workbook-job.ts';
import { nominationsJob } from './export-nominations.export.ts';
import {
  createExportNominationsRepository,
  type NominationRecord,
  type NominationValues,
} from './export-nominations.repository.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Fields = Omit<C.ExportNominationFields, 'idMark' | 'receiveEmail'> & { idMark: string; receiveEmail: string };

const values = (f: Fields): NominationValues => ({
  name_ja: f.nameJa,
  name_en: f.nameEn,
  corporate_number: f.corporateNumber,
  address_en: f.addressEn,
  tel: f.tel,
  id_mark: f.idMark,
  receive_email: f.receiveEmail,
});

const isoOf = (t: string | Date) => new Date(t).toISOString();

export function present(r: NominationRecord): C.ExportNominationRow {
  return {
    id: r.id,
    version: r.version,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    nameJa: r.name_ja,
    nameEn: r.name_en,
    corporateNumber: r.corporate_number,
    addressEn: r.address_en,
    tel: r.tel,
    idMark: r.id_mark,
    receiveEmail: r.receive_email,
    createdAt: isoOf(r.created_at),
    updatedAt: r.updated_at ? isoOf(r.updated_at) : null,
  };
}

/**
 * Export nominations: list, create, change and delete them in the caller's scope (a customer
 * its own, an agent its customers', operators all; another tenant's id is not found). A
 * nomination is deleted by marking it (orders keep naming it) and only while no order not yet
 * shipped and no batch not yet committed names it.
 */
export function createExportNominationsService(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const repo = createExportNominationsRepository(db);
  const now = () => clock().toISOString();

  async function loadScoped(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'exportNominationNotFound');
    return r;
  }

  return {
    async page(scope: Scope, f: C.ExportNominationListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map(present) };
    },

    async info(scope: Scope, id: number) {
      return present(await loadScoped(scope, id));
    },

    async create(actor: Actor, scope: Scope, input: Fields & { customerId?: number }) {
      const customerId = customerFor(actor, scope, input.customerId);
      const { id } = await repo.insert(customerId, values(input), now());
      return present(await loadScoped(scope, id));
    },

    async update(scope: Scope, input: Fields & { id: number; version?: number }) {
      return versionedSave(
        async () => {
          if (!(await repo.update(scope, input.id, values(input), now(), input.version))) {
            // With a version, a row that is still there was changed meanwhile (the read below says which).
            if (input.version !== undefined) throw new StaleVersion();
            throw new AppError(ErrorCode.NOT_FOUND, 'exportNominationNotFound');
          }
          return present(await loadScoped(scope, input.id));
        },
        () => this.info(scope, input.id),
      );
    },

    async updateReceiveEmail(scope: Scope, id: number, receiveEmail: string) {
      if (!(await repo.update(scope, id, { receive_email: receiveEmail }, now()))) {
        throw new AppError(ErrorCode.NOT_FOUND, 'exportNominationNotFound');
      }
      return present(await loadScoped(scope, id));
    },

    async remove(scope: Scope, id: number) {
      if (await repo.deleteUnused(scope, id, now())) return null;
      // Nothing deleted: not there (or not the caller's, or deleted already), or in use.
      const r = await loadScoped(scope, id);
      const use: C.NominationInUse = await repo.usage(r.customer_id, id);
      const params = {
        count: use.orders,
        orderNos: use.orderNos.join(', ') + (use.orders > use.orderNos.length ? ', …' : ''),
        batches: use.batches,
      };
      const key =
        use.orders && use.batches
          ? 'exportNominationInUseBoth'
          : use.batches
            ? 'exportNominationInUseBatches'
            : 'exportNominationInUse';
      throw AppError.conflict(key, params, use);
    },

    async download(
      scope: Scope,
      f: Omit<C.ExportNominationListRequest, 'offset' | 'limit'>,
      lang: ApiLanguage,
      progress?: ProgressTracker,
    ) {
      const job = nominationsJob(repo.forExport(scope, f), lang);
      const name = lang === 'en' ? 'export-nominations' : '出口抬头';
      return new Download(`${name}-${now().slice(0, 10)}.xlsx`, XLSX, await buildWorkbookStream(db, job, progress));
    },
  };
}
export type ExportNominationsService = ReturnType<typeof createExportNominationsService>;
