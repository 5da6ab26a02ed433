/** Masking of personal data in lists (issue: "ID numbers and phones masked in lists"). */
export function maskPhone(phone: string): string {
  const p = phone.trim();
  if (p.length <= 4) return '*'.repeat(p.length);
  return p.length >= 11
    ? `${p.slice(0, 3)}****${p.slice(-4)}`
    : `${p.slice(0, 2)}${'*'.repeat(p.length - 4)}${p.slice(-2)}`;
}
export function maskIdCard(id: string): string {
  const s = id.trim();
  return s.length <= 8 ? '*'.repeat(s.length) : `${s.slice(0, 4)}${'*'.repeat(s.length - 8)}${s.slice(-4)}`;
}
/** Keeps the first character of a name: 张三 → 张*, Alice Smith → A**********. */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  return chars.length <= 1 ? chars.join('') : chars[0] + '*'.repeat(chars.length - 1);
}
