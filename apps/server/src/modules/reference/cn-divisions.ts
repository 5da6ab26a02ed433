import { areaList } from '@vant/area-data';

/**
 * China's administrative divisions from @vant/area-data (maintained, MIT, includes
 * HK/MO/TW): 6-digit codes, province = XX0000, city = XXXX00.
 */
type Division = { code: string; name: string };
const toList = (m: Record<string, string>): Division[] =>
  Object.entries(m)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));

const provinces = toList(areaList.province_list);
const cities = toList(areaList.city_list);
const areas = toList(areaList.county_list);

export const cnDivisions = {
  provinces: () => provinces,
  cities: (province: string) => cities.filter((c) => c.code.slice(0, 2) === province.slice(0, 2)),
  areas: (city: string) => areas.filter((a) => a.code.slice(0, 4) === city.slice(0, 4)),
  /** Finds a division by name (exact, or with its administrative suffix dropped). */
  findProvince: (name: string) => findByName(provinces, name),
  findCity: (provinceCode: string, name: string) =>
    findByName(
      cities.filter((c) => c.code.startsWith(provinceCode.slice(0, 2))),
      name,
    ),
  findArea: (cityCode: string, name: string) =>
    findByName(
      areas.filter((a) => a.code.startsWith(cityCode.slice(0, 4))),
      name,
    ),
};

const SUFFIX = /(省|市|自治区|特别行政区|壮族|回族|维吾尔|自治州|地区|盟|区|县|自治县|旗)$/u;
function findByName(list: Division[], raw: string): Division | undefined {
  const name = raw.trim();
  if (!name) return undefined;
  return list.find((d) => d.name === name) ?? list.find((d) => d.name.replace(SUFFIX, '') === name.replace(SUFFIX, ''));
}
