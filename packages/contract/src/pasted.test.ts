import { describe, expect, it } from 'vitest';
import { pastedNumbers } from './orders.ts';
import { lastPlaces, lastWins, splitPastedNumbers } from './pasted.ts';

/** Issue 28 #18: spec §5 "duplicate order numbers in pasted text: the last wins", one rule everywhere. */
describe('pasted numbers: the last wins', () => {
  it('a repeated number is kept once, where it last comes', () => {
    expect(splitPastedNumbers('A001\nB002, A001；C003\tB002')).toEqual(['A001', 'C003', 'B002']);
    expect(splitPastedNumbers(' \n ,')).toEqual([]);
  });

  it('the contract field of every paste (search, tracking, batch sender, interceptions) follows it', () => {
    expect(pastedNumbers.parse('A001\nB002\nA001')).toEqual(['B002', 'A001']);
    expect(pastedNumbers.parse(['A001', ' B002 ', 'A001', ''])).toEqual(['B002', 'A001']);
  });

  it('what a line carries goes with its last place (a storage line and its weight)', () => {
    const lines = [
      { code: 'W1', weight: 100 },
      { code: 'W2', weight: 5 },
      { code: 'W1', weight: 2600 },
    ];
    expect(lastWins(lines, (l) => l.code)).toEqual([
      { code: 'W2', weight: 5 },
      { code: 'W1', weight: 2600 },
    ]);
    expect([...lastPlaces(lines, (l) => l.code)]).toEqual([
      ['W1', 2],
      ['W2', 1],
    ]);
  });
});
