/**
 * Spec §7 marks which calls are AES ("Calls marked AES send the body encrypted"); a client
 * written from the spec seals exactly those and sends every other call plain, so the contract's
 * `aes` flags must follow the marks (issue 28 item 20). The section is quoted below word for word
 * (spec 1.21.2, lines "- **Auth**" to "- **Other groups**") and parsed against the list it
 * must give (spec-calls.ts `specAesCallPaths`), so neither a typo in the list nor a drift of a
 * flag goes unnoticed.
 */
import { describe, expect, it } from 'vitest';
import type { CallDef } from './call.ts';
import { allCalls, calls, specAesCallPaths } from './index.ts';

const SPEC_7_CALLS = `
- **Auth**: login {name,password} returns access_token; me (AES); logout; refresh; updatePassWord {old_password,password}.
- **Notifications**: notifications; notification/search; notification/info; notice/check; notice/agree; message.
- **Order review** (AES): orderReviews; orderReview/orders; orderReview/order/items; orderReview/delBatch; orderReview/create (no timeout); orderReview/downloadInfoItem (no timeout); orderReview/downloadTemplateExcel (blob).
- **Files and bills**: file/downloadSteam (blob, no timeout); bills; bill/downloadXlsx (no timeout); currencies.
- **Item** (all AES): item/adj, items, item, create, update, parts, brands, categories, exportCategories, taxes.
- **Storage** (AES): storageOrders, storageOrder/orders, create, createBatch, originSelect.
- **Export nomination** (AES): export/list, create, update, export, delete; user/updateReceiveEmail.
- **Counts**: order/error and order/abnormal {offset,limit,order}, with offset 0 and limit 1, reading data.total.
- **Recipient**: recipient/list, recipient/create.
- **Meituan**:
  - meituan_reservation_order/templateExcel (blob), create, export, operationLocationList, items, batchNumber
  - meituan_reservation_orders
  - meituan_reservation_order
- **Subscribe**: /subscribe/time/slots, take/piece, take/piece/list, take/pdf, message, take/piece/cancel, take/piece/info.
- **Reference data**: channels; customsClearanceCompanies; exports; orderTypes; noTypes; cn/address/provinces, cities, areas.
- **Template downloads (blobs)**: download/* for order, import order, box-C variants, USA domestic, AU, UK, PH, TH, SG, USA, EMS and waybill/order-number templates.
- **Batches**:
  - order/batch/create, createImportByBoxC, createImport, createUsaBoxcImport, createEmsImport, delete, progress, search, download/excel (blob, no timeout), download/excelByTime
  - order/batches
  - Download periods: last week, last month, last three months.
- **Orders**:
  - order/orders, order/items, order/order
  - order/order/update, delete, abnormal/update, error/update, error/update2, download/labelProduct, download/labelA
  - order/error/boxcUpdate
  - order/idCard and its template
  - order/getOrderNumber, getSendAddress, resolveAddress, getItemByJan, createImport, printLabelA, printLabelAResult, setDefaultNumber, getDefaultNumber, search, orderScan, orderList, identifyPostalCode, setFlag, setOrderFlag, downloadOrderExcel, downloadOrderMDABatch, downloadOrderMDABatchByOrder, downloadMDABatch, downloadMDABatch2, downloadMDA2PD, downloadMDA2PDBatch, downloadMDA2PDByOrder, downloadMDA2PDBatchByOrder, downloadPermitPdf
  - order/item/create, update, delete
- **Label address update**: updateLableB/list, progress, info, downloadXlsx, export, create, prompt; validateAbnormalRule/selectAllRule.
- **Self-send**: /selfSends/save, /selfSends/list.
- **Export declarations**: /exportDeclarations; /exportDeclaration/update, download, updatebatch, updatebatch2, downloadDeclareAtCustoms, download2.
- **Interception**: /order/list/interception, /order/create/interception, /order/cancel/interception.
- **JD authorization**: /jdAuthorize/select, list, info, create, update, delete, getAuthorizeUrl, renewal, getJdToken.
- **Other groups**: order, mtOrder, recipient and subscribe groups exist; their detail is not shown.
`;

/** What §7 marks AES, written out (spec-calls.ts): "me (AES)" and the groups marked "(AES)" / "(all AES)". */
const SPEC_AES: readonly string[] = specAesCallPaths;

/**
 * Calls beyond §7 sealed although their group is not an AES group, each with the reason
 * (docs/decisions/2026-11-27-aes-follows-spec-marks.md). No spec-reading client calls them.
 */
const SEALED_BEYOND_SPEC: Record<string, string> = {
  'admin/user/create': 'answers a one-time password',
  'admin/user/resetPassword': 'answers a one-time password',
};

const contractPaths = new Set(allCalls.map((c) => c.path));
const MARK = /\((?:all )?AES\)/;

interface Named {
  path: string;
  aes: boolean;
  group: string;
}

/**
 * The call names of §7's bullets, resolved to contract paths. The spec shortens names after the
 * first of a group ("item/adj, items, item, create" is item/create; "/subscribe/time/slots,
 * take/piece" is subscribe/take/piece), so a short name is tried under the last name's folder,
 * then under the group's first segment, then as it stands. Prose ("with offset 0") resolves to
 * nothing and is returned apart.
 */
function parseSpec(text: string): { named: Named[]; unresolved: { group: string; aes: boolean; word: string }[] } {
  const named: Named[] = [];
  const unresolved: { group: string; aes: boolean; word: string }[] = [];
  let group = '';
  let groupAes = false;
  for (const line of text.split('\n')) {
    const top = /^- \*\*(.+?)\*\*(.*?):(.*)$/.exec(line);
    const sub = /^\s+- (.*)$/.exec(line);
    let rest: string;
    if (top) {
      group = top[1]!;
      groupAes = MARK.test(top[2]!);
      rest = top[3]!;
    } else if (sub) rest = sub[1]!;
    else continue;
    let first: string | undefined;
    let lastDir: string | undefined;
    for (const raw of rest.replace(/\{[^}]*\}/g, '').split(/[,;]| and /)) {
      const aes = groupAes || MARK.test(raw);
      const word = /^\s*\/?([\w/]+)/.exec(raw.replace(/\([^)]*\)/g, ''))?.[1];
      if (!word) continue;
      const tries = [lastDir && `${lastDir}/${word}`, first && `${first.split('/')[0]}/${word}`, word].filter(
        (t): t is string => !!t && contractPaths.has(t),
      );
      const path = tries[0];
      if (!path) {
        unresolved.push({ group, aes, word });
        continue;
      }
      named.push({ path, aes, group });
      first ??= path;
      if (path.includes('/')) lastDir = path.slice(0, path.lastIndexOf('/'));
    }
  }
  return { named, unresolved };
}

const spec = parseSpec(SPEC_7_CALLS);
const specPaths = new Set(spec.named.map((n) => n.path));

/** The contract module each call is defined in (its group: items, pickups, label-b…). */
const moduleOf = new Map<string, string>(
  Object.entries(calls).flatMap(([mod, defs]) =>
    Object.values(defs as Record<string, unknown>)
      .filter((v): v is CallDef => typeof v === 'object' && v !== null && 'path' in v && 'request' in v)
      .map((def) => [def.path, mod] as const),
  ),
);

describe('AES marks (spec §7)', () => {
  it('the list of AES calls is what §7 marks, and every name in an AES group is a contract call', () => {
    expect(spec.unresolved.filter((u) => u.aes)).toEqual([]);
    const marked = spec.named.filter((n) => n.aes).map((n) => n.path);
    expect([...marked].sort()).toEqual([...SPEC_AES].sort());
  });

  it('every call §7 names is sealed exactly when §7 marks it AES', () => {
    const wrong = allCalls
      .filter((def) => specPaths.has(def.path))
      .filter((def) => def.aes !== SPEC_AES.includes(def.path))
      .map((def) => `${def.path}: ${def.aes ? 'sealed' : 'plain'}`);
    expect(wrong).toEqual([]);
  });

  it("a call beyond §7 travels like its group's calls (plain unless the group is AES), or is a listed exception", () => {
    // A module is an AES group when every call of it §7 names is marked AES.
    const sealedModules = new Set(
      [...new Set(moduleOf.values())].filter((mod) => {
        const named = allCalls.filter((def) => moduleOf.get(def.path) === mod && specPaths.has(def.path));
        return named.length > 0 && named.every((def) => SPEC_AES.includes(def.path));
      }),
    );
    const wrong = allCalls
      .filter((def) => !specPaths.has(def.path))
      .filter((def) => def.aes !== (sealedModules.has(moduleOf.get(def.path)!) || def.path in SEALED_BEYOND_SPEC))
      .map((def) => `${def.path} (${moduleOf.get(def.path)}): ${def.aes ? 'sealed' : 'plain'}`);
    expect(wrong).toEqual([]);
    for (const path of Object.keys(SEALED_BEYOND_SPEC)) expect(specPaths.has(path), path).toBe(false);
  });
});
