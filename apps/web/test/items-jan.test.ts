import { describe, expect, it } from 'vitest';
import { setLocale } from '../src/lib/index.ts';
import '../src/features/items/i18n.ts';
import { isDecimal, janProblem } from '../src/features/items/components/jan.ts';

describe('janProblem', () => {
  setLocale('en');
  it('accepts valid EAN-13 and EAN-8 and an empty field', () => {
    expect(janProblem('4901234567894')).toBeNull();
    expect(janProblem('49123456')).toBeNull();
    expect(janProblem('')).toBeNull();
  });
  it('names the right check digit of a wrong one', () => {
    expect(janProblem('4901234567890')).toContain('should be 4');
  });
  it('says how many digits were typed', () => {
    expect(janProblem('490123')).toContain('6 entered');
    expect(janProblem('49ab')).toContain('8 or 13 digits');
  });
});

describe('isDecimal', () => {
  it('takes decimal strings with up to two decimals', () => {
    expect(['12', '12.5', '0.01'].every(isDecimal)).toBe(true);
    expect(['', '1.234', '-1', '1e3', 'abc'].some(isDecimal)).toBe(false);
  });
});
