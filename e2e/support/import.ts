/** Batch import helpers: fill a downloaded template with ExcelJS, a valid row by English header. */
import ExcelJS from 'exceljs';

/** Fills rows from row 3 (row 2 is the template's example), columns found by their English header. */
export async function fillTemplate(file: string, rows: Record<string, string | number>[]) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.getWorksheet('orders')!;
  const col = new Map<string, number>();
  // "Unit Price (JPY)": the currency a fixed channel's template names is not part of the name.
  ws.getRow(1).eachCell((c, i) =>
    col.set(
      String(c.value)
        .split(' / ')[1]!
        .replace(/ \([A-Z]{3}\)$/, ''),
      i,
    ),
  );
  rows.forEach((r, i) => Object.entries(r).forEach(([k, v]) => (ws.getRow(3 + i).getCell(col.get(k)!).value = v)));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** One valid Japan-parcel row. */
export const importRow = (no: string, phone = '13800138000') => ({
  'Order No.': no,
  'Box No.': 'B1',
  'Recipient Name': '王伟',
  'Recipient Phone': phone,
  'Recipient ID Card': '110105199001011232',
  Province: '北京市',
  City: '北京市',
  District: '朝阳区',
  Address: '建国路 88 号',
  'Item Name': '洗面奶',
  Quantity: 1,
  'Unit Price': 1200,
});
