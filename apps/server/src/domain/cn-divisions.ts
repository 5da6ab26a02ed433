import { areaList } from '@vant/area-data';

/**
 * China's administrative divisions from @vant/area-data (maintained, MIT, includes
 * HK/MO/TW): 6-digit codes, province = XX0000, city = XXXX00.
 * Lookups go through Map indexes built once (the import validates every row with them).
 */
type Division = { code: string; name: string };
const toList = (m: Record<string, string>): Division[] =>
  Object.entries(m)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));

const provinces = toList(areaList.province_list);
const cities = toList(areaList.city_list);
const areas = toList(areaList.county_list);

const SUFFIX = /(省|市|自治区|特别行政区|壮族|回族|维吾尔|自治州|地区|盟|区|县|自治县|旗)$/u;
const strip = (name: string) => name.replace(SUFFIX, '');

/** Divisions grouped by a code prefix, in code order. */
function groupBy(list: Division[], prefixLen: number) {
  const m = new Map<string, Division[]>();
  for (const d of list) {
    const k = d.code.slice(0, prefixLen);
    (m.get(k) ?? m.set(k, []).get(k)!).push(d);
  }
  return m;
}

/**
 * Name index of a list (by code prefix): the first division in code order with the exact
 * name, and the first whose name equals with the administrative suffix dropped — the same
 * answers as scanning the list, in O(1).
 */
function nameIndex(list: Division[], prefixLen: number) {
  const exact = new Map<string, Division>();
  const loose = new Map<string, Division>();
  for (const d of list) {
    const p = d.code.slice(0, prefixLen);
    const e = `${p}\u0000${d.name}`;
    const l = `${p}\u0000${strip(d.name)}`;
    if (!exact.has(e)) exact.set(e, d);
    if (!loose.has(l)) loose.set(l, d);
  }
  return (prefix: string, raw: string): Division | undefined => {
    const name = raw.trim();
    if (!name) return undefined;
    return exact.get(`${prefix}\u0000${name}`) ?? loose.get(`${prefix}\u0000${strip(name)}`);
  };
}

const citiesByProvince = groupBy(cities, 2);
const areasByCity = groupBy(areas, 4);
const findProvince = nameIndex(provinces, 0);
const findCity = nameIndex(cities, 2);
const findArea = nameIndex(areas, 4);

/** Built once on first use: the data does not change while the server runs. */
let treeCache: (Division & { children: (Division & { children: Division[] })[] })[] | undefined;
const tree = () =>
  (treeCache ??= provinces.map((p) => ({
    ...p,
    children: (citiesByProvince.get(p.code.slice(0, 2)) ?? []).map((c) => ({
      ...c,
      children: areasByCity.get(c.code.slice(0, 4)) ?? [],
    })),
  })));

export const cnDivisions = {
  tree,
  provinces: () => provinces,
  cities: (province: string) => [...(citiesByProvince.get(province.slice(0, 2)) ?? [])],
  areas: (city: string) => [...(areasByCity.get(city.slice(0, 4)) ?? [])],
  /** Finds a division by name (exact, or with its administrative suffix dropped). */
  findProvince: (name: string) => findProvince('', name),
  findCity: (provinceCode: string, name: string) => findCity(provinceCode.slice(0, 2), name),
  findArea: (cityCode: string, name: string) => findArea(cityCode.slice(0, 4), name),
  /**
   * The city a recipient's city names in a province. A municipality (Beijing, Shanghai, Tianjin:
   * one city of its own name) is also written with 市辖区 or with the district in the city's place;
   * any other name is not one of its cities (issue 36 #21: "北京市 广州市 朝阳区" was taken for Beijing).
   */
  cityOf: (provinceCode: string, name: string): Division | undefined => {
    const found = findCity(provinceCode.slice(0, 2), name);
    if (found) return found;
    const only = citiesByProvince.get(provinceCode.slice(0, 2)) ?? [];
    if (only.length !== 1) return undefined;
    const city = only[0];
    const n = name.trim();
    return n === '市辖区' || findArea(city.code.slice(0, 4), n) ? city : undefined;
  },
};
