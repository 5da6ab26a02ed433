import { describe, expect, it } from 'vitest';
import {
  checkIdCard,
  eanCheckDigit,
  idCardCheckChar,
  isMinor,
  corporateNumberCheckDigit,
  corporateNumberProblem,
  isValidCorporateNumber,
  isValidJan,
  isValidS10,
  normalizeCell,
  s10CheckDigit,
  s10Number,
} from './checks.ts';

const today = new Date('2026-11-21T03:00:00Z');

describe('resident ID (GB 11643)', () => {
  it.each([
    ['11010519491231002X', true],
    ['440524188001010014', true],
    ['110105194912310021', false],
  ])('%s check digit ok = %s', (id, ok) => {
    expect(idCardCheckChar(id.slice(0, 17)) === id[17]).toBe(ok);
  });
  it('rejects impossible and future birth dates, accepts unknown areas', () => {
    const make = (first17: string) => first17 + idCardCheckChar(first17);
    expect(checkIdCard(make('11010520230230123'), today)).toEqual({ ok: false, problem: 'birthDate' });
    expect(checkIdCard(make('11010520271201123'), today)).toEqual({ ok: false, problem: 'birthDate' });
    expect(checkIdCard(make('99999919900101123'), today)).toEqual({ ok: true, birth: '1990-01-01' });
    expect(checkIdCard('12345', today)).toEqual({ ok: false, problem: 'format' });
  });
  it('refuses a wrong check digit, whichever digit it is (issue 36 #17: only the check char was tested)', () => {
    const first17 = '11010519491231002';
    const right = idCardCheckChar(first17);
    expect(checkIdCard(first17 + right, today)).toEqual({ ok: true, birth: '1949-12-31' });
    for (const wrong of '0123456789X'.split('').filter((c) => c !== right))
      expect(checkIdCard(first17 + wrong, today), wrong).toEqual({ ok: false, problem: 'checkDigit' });
  });
  it('is a minor until the 18th birthday in Asia/Shanghai', () => {
    expect(isMinor('2008-11-21', today)).toBe(false);
    expect(isMinor('2008-11-22', today)).toBe(true);
    // 2026-11-21T20:00Z is already 11-22 in Shanghai.
    expect(isMinor('2008-11-22', new Date('2026-11-21T20:00:00Z'))).toBe(false);
    // Born on 29 February: 18 on 1 March of a common year, not on 28 February.
    expect(isMinor('2008-02-29', new Date('2026-02-28T03:00:00Z'))).toBe(true);
    expect(isMinor('2008-02-29', new Date('2026-03-01T03:00:00Z'))).toBe(false);
    expect(isMinor('1990-01-01', today)).toBe(false);
    expect(isMinor('2020-06-30', today)).toBe(true);
  });
});

describe('JAN, S10, corporate number', () => {
  it('EAN check digits', () => {
    expect(eanCheckDigit('490123456789')).toBe(4);
    expect(isValidJan('4901234567894')).toBe(true);
    expect(isValidJan('4901234567895')).toBe(false);
    expect(isValidJan('49123456')).toBe(eanCheckDigit('4912345') === 6);
    expect(isValidJan('12345')).toBe(false);
  });
  it('S10 check digits, including the 10 → 0 and 11 → 5 cases', () => {
    expect(s10CheckDigit('47312482')).toBe(9); // UPU example RA473124829GB
    expect(s10CheckDigit('00004000')).toBe(0); // sum 12, 11 - 1 = 10 → 0
    expect(s10CheckDigit('00000000')).toBe(5); // sum 0, 11 - 0 = 11 → 5
    expect(isValidS10('RA473124829GB')).toBe(true);
    expect(isValidS10('RA473124828GB')).toBe(false);
    expect(s10Number('EE', 12345678, 'JP')).toMatch(/^EE12345678\dJP$/);
    // Exhaustively: the check digit is always one digit and the number validates.
    for (let n = 10_000_000; n < 10_000_200; n++) expect(isValidS10(s10Number('EE', n, 'JP'))).toBe(true);
  });
  it('corporate number check digit comes first', () => {
    expect(isValidCorporateNumber('7000012050002')).toBe(true); // National Tax Agency (国税庁)
    expect(isValidCorporateNumber('1180301018771')).toBe(true); // Toyota Motor Corporation
    expect(isValidCorporateNumber('8000012050002')).toBe(false);
    expect(isValidCorporateNumber('2180301018771')).toBe(false);
    expect(corporateNumberCheckDigit('180301018771')).toBe(1);
    expect(corporateNumberCheckDigit('000012050002')).toBe(7);
    // sum mod 9 = 0 gives 9, never 0.
    expect(corporateNumberCheckDigit('000000000000')).toBe(9);
    expect(corporateNumberProblem(' 1180301018771 ')).toBeNull();
    expect(corporateNumberProblem('0180301018771')).toBe('checkDigit');
    expect(corporateNumberProblem('118030101877')).toBe('length');
    expect(corporateNumberProblem('11803010187710')).toBe('length');
    expect(corporateNumberProblem('')).toBe('length');
    expect(corporateNumberProblem('11803O1018771')).toBe('digits');
    expect(corporateNumberProblem('1180-301018771')).toBe('digits');
  });
  it('normalises full-width digits and stray spaces', () => {
    expect(normalizeCell('　１２３ＡＢ　')).toBe('123AB');
  });
});
