import { areaList } from '@vant/area-data';
import { describe, expect, it } from 'vitest';
import { cnDivisions } from '../../src/domain/cn-divisions.ts';

/** The lookups the import runs per row are Map indexes: they must answer exactly as a scan would. */
const SUFFIX = /(省|市|自治区|特别行政区|壮族|回族|维吾尔|自治州|地区|盟|区|县|自治县|旗)$/u;
const list = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));
const scan = (l: { code: string; name: string }[], raw: string) => {
  const name = raw.trim();
  if (!name) return undefined;
  return l.find((d) => d.name === name) ?? l.find((d) => d.name.replace(SUFFIX, '') === name.replace(SUFFIX, ''));
};
const provinces = list(areaList.province_list);
const cities = list(areaList.city_list);
const areas = list(areaList.county_list);

describe('cn-divisions indexes', () => {
  it('find* answer as a scan of the list for every name, with and without suffix, trimmed', () => {
    for (const p of provinces) {
      for (const q of [p.name, p.name.replace(SUFFIX, ''), ` ${p.name} `])
        expect(cnDivisions.findProvince(q)).toEqual(scan(provinces, q));
      const inP = cities.filter((c) => c.code.startsWith(p.code.slice(0, 2)));
      expect(cnDivisions.cities(p.code)).toEqual(inP);
      for (const c of inP) {
        for (const q of [c.name, c.name.replace(SUFFIX, '')])
          expect(cnDivisions.findCity(p.code, q)).toEqual(scan(inP, q));
        const inC = areas.filter((a) => a.code.startsWith(c.code.slice(0, 4)));
        expect(cnDivisions.areas(c.code)).toEqual(inC);
        for (const a of inC)
          for (const q of [a.name, a.name.replace(SUFFIX, '')])
            expect(cnDivisions.findArea(c.code, q)).toEqual(scan(inC, q));
      }
    }
    expect(cnDivisions.findProvince('  ')).toBeUndefined();
    expect(cnDivisions.findCity('330000', '北京市')).toBeUndefined();
    expect(cnDivisions.findArea('330100', '西湖区')?.code).toBe('330106');
    expect(cnDivisions.findArea('330100', '西湖')?.code).toBe('330106');
  });
});
