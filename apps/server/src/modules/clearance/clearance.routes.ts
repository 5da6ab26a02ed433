import { clearance as c } from '@console/contract';
import { Download } from '../../http/call-context.ts';
import type { Registrar } from '../../http/register-call.ts';
import { XLSX_MIME } from '../../lib/generated-files.ts';
import type { ClearanceService } from './clearance.service.ts';

/** The operators' calls: the company's template, the result sheet, and a refused sheet's rows. */
export function clearanceRoutes(r: Registrar, service: ClearanceService) {
  r.call(c.clearanceTemplate, async (input, ctx) => {
    const f = await service.template(ctx.lang, input.company);
    return new Download(f.filename, XLSX_MIME, f.body);
  });
  r.call(c.clearanceUpload, async (input, ctx) =>
    service.upload(ctx.actor, ctx.lang, input.company, ctx.files.find((f) => f.field === 'file') ?? ctx.files[0]),
  );
  r.call(c.clearanceErrors, async (input, ctx) => {
    const f = await service.errorFile(ctx.actor, input.fileId);
    return new Download(f.name, f.mime, f.body);
  });
}
