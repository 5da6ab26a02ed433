import AddressParseModule from 'address-parse';
import { cnDivisions } from '../../domain/cn-divisions.ts';

/** address-parse ships CommonJS with a default export object. */
const AddressParse = ((AddressParseModule as any).default ?? AddressParseModule) as {
  parse(text: string): {
    province: string;
    city: string;
    area: string;
    details: string;
    name: string;
    mobile: string;
    phone: string;
    zip_code: string;
    code: string;
  }[];
};

/**
 * The labels people copy along with an address (from shop back-ends, chat apps, labels).
 * address-parse knows some of them and keeps others in the name ("收货人: 李雷，手机 139…"
 * became the name "李雷 手机"). Longest first, so "手机号码" is taken whole, not as "手机" + "号码".
 */
const LABELS = [
  '收货人姓名',
  '收件人姓名',
  '联系人姓名',
  '收货人',
  '收件人',
  '联系人',
  '姓名',
  '名字',
  '手机号码',
  '手机号',
  '手机',
  '联系电话',
  '电话号码',
  '联系方式',
  '电话',
  '所在地区',
  '收货地址',
  '收件地址',
  '详细地址',
  '地址',
  '邮政编码',
  '邮编',
].sort((a, b) => b.length - a.length);

/** Where one copied field ends and the next begins. */
const SEPARATOR = '[\\s,，;；、|｜/]';
/**
 * A label is only a label at the start of a field (text start or after a separator), followed
 * by a colon, a space or the value itself: "阿里地区" or "地址" in the middle of a street stays.
 */
const LABEL = new RegExp(`(^|${SEPARATOR})(?:【|\\[)?(?:${LABELS.join('|')})(?:】|\\])?\\s*[:：]?`, 'gu');

/** A mobile number as people write it: "+86 139-1234-5678", "139 1234 5678". */
const WRITTEN_MOBILE = /(?<![\d+])(?:\+?86[\s-]?)?(1[3-9]\d)[\s-]?(\d{4})[\s-]?(\d{4})(?!\d)/gu;

/**
 * The labels replaced by a space (a field boundary), mobile numbers written in one piece, and
 * runs of separators made one.
 */
export function stripLabels(text: string): string {
  return text
    .replace(WRITTEN_MOBILE, ' $1$2$3 ')
    .replace(LABEL, '$1 ')
    .replace(/[\s,，;；、|｜]+/gu, ' ')
    .trim();
}

/** What the parse left in a field that does not belong there; the keys are message keys. */
const LABEL_WORD = new RegExp(LABELS.join('|'), 'u');
/** In a street address only a label with its colon is a leftover ("华强北手机城" is a place). */
const LABEL_WITH_COLON = new RegExp(`(?:${LABELS.join('|')})\\s*[:：]`, 'u');
/** A name: Chinese characters (with the "·" of ethnic names) or Latin letters, at most 20. */
const CLEAN_NAME = /^(?:[\p{Script=Han}·•]{1,15}|[A-Za-z][A-Za-z .'-]{0,39})$/u;
/** "李雷先生": a courtesy title, not part of the name the ID card carries. */
const HONORIFIC = /(先生|女士|小姐)$/u;
const NAME_LABEL = /(?:收货人|收件人|联系人)(?:姓名)?|姓名/gu;
const CN_MOBILE = /^1[3-9]\d{9}$/;
const CN_LANDLINE = /^0\d{2,3}-?\d{7,8}(?:-\d{1,6})?$/;

export type ResolvedAddress = {
  name: string;
  phone: string;
  province: string;
  provinceCode: string | null;
  city: string;
  cityCode: string | null;
  district: string;
  districtCode: string | null;
  address: string;
  postcode: string;
  /** Message keys of what is missing or doubtful (empty: the parse is sure). */
  problems: string[];
};

/**
 * A pasted address → recipient fields, re-mapped onto the divisions of @vant/area-data. The parse
 * is doubtful (the user confirms it) when a part is missing or a field holds leftovers: a label,
 * a digit or punctuation in the name, a second phone number or a label in the street address.
 */
export function resolveAddressText(text: string): ResolvedAddress {
  const [p] = AddressParse.parse(stripLabels(text));
  const problems: string[] = [];
  const province = p?.province ? cnDivisions.findProvince(p.province) : undefined;
  const city = province && p?.city ? cnDivisions.findCity(province.code, p.city) : undefined;
  const district = city && p?.area ? cnDivisions.findArea(city.code, p.area) : undefined;
  const name = (p?.name ?? '').trim();
  const phone = (p?.mobile || p?.phone || '').trim();
  const address = (p?.details ?? '').trim();
  if (!name) problems.push('addressNoName');
  else if (!CLEAN_NAME.test(name) || LABEL_WORD.test(name) || HONORIFIC.test(name))
    problems.push('addressNameLeftovers');
  if (!phone) problems.push('addressNoPhone');
  else if (!CN_MOBILE.test(phone) && !CN_LANDLINE.test(phone)) problems.push('addressPhoneDoubtful');
  if (!province) problems.push('addressNoProvince');
  else if (!city) problems.push('addressNoCity');
  else if (!district) problems.push('addressNoDistrict');
  if (address.length < 2) problems.push('addressNoDetail');
  else if (LABEL_WITH_COLON.test(address) || /(?<!\d)1[3-9]\d{9}(?!\d)/.test(address))
    problems.push('addressDetailLeftovers');
  // Two recipients or two phones pasted together: the parse keeps one and drops or misplaces the other.
  const mobiles = new Set(stripLabels(text).match(/(?<!\d)1[3-9]\d{9}(?!\d)/g) ?? []);
  const nameLabels = text.match(NAME_LABEL) ?? [];
  if (mobiles.size > 1 || nameLabels.length > 1) problems.push('addressSeveral');
  return {
    name,
    phone,
    province: province?.name ?? p?.province ?? '',
    provinceCode: province?.code ?? null,
    city: city?.name ?? p?.city ?? '',
    cityCode: city?.code ?? null,
    district: district?.name ?? p?.area ?? '',
    districtCode: district?.code ?? null,
    address,
    postcode: p?.zip_code ?? '',
    problems,
  };
}
